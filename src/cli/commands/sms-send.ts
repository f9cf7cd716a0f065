import { SmsError } from '../../index.js';
import { SecretMask } from '../../secrets/secret-mask.js';
import { CONNECTION_OPTIONS, type Command, noArguments, OUTPUT_OPTIONS, oneOf, parseFlags } from '../command.js';
import { connectSms } from '../config.js';
import { Diagnostics, messageOf } from '../io.js';
import { createWriter, FORMATS } from '../output/index.js';
import { EXIT, UsageError } from '../usage-error.js';

const OPTIONS = {
  ...OUTPUT_OPTIONS,
  ...CONNECTION_OPTIONS,
  phone: { type: 'string', multiple: true },
  template: { type: 'string' },
  param: { type: 'string' },
  'sign-name': { type: 'string' },
  'out-id': { type: 'string' },
  method: { type: 'string' },
  'access-key-id': { type: 'string' },
  'retry-unknown-outcome': { type: 'boolean' },
} as const;

const HELP = `Usage: hashscan-sms sms send --phone NUMBER --template CODE [--param JSON] [options]

Sends one template SMS through the AK/SK-signed interface. The access key
secret is read from $SMS_ACCESS_KEY_SECRET only (never a flag: command lines
show in \`ps\`); it is never printed.

Message:
  --phone NUMBER        recipient: one number per --phone, repeat it for several
                        (a comma is refused, not split: the library's rule, so a
                        list pasted into one value never fans a message out)
  --template CODE       template code, e.g. SMS_100000001
  --param JSON          template variables, a JSON object of strings, e.g.
                        '{"code":"123456"}' (default {}); numbers too go in quotes:
                        "123456", not 123456 (the service refuses other JSON types)
  --sign-name NAME      SMS signature (default: the account's)
  --out-id ID           your correlation id
  --method GET|POST     default POST (keeps phone numbers out of URLs)

Connection (flags override the environment):
  --sandbox             send to an in-process local sandbox
  --base-url URL        default: $SMS_BASE_URL
  --access-key-id ID    default: $SMS_ACCESS_KEY_ID
  --retry-unknown-outcome  re-send after a time-out (may deliver twice; off by default)
  --timeout MS, --retries N

Output:
  -f, --format FORMAT   table (default), ndjson, csv or json
  -v, --verbose         log the request on stderr (secrets and signatures masked)

Exit status: 0 accepted, 1 refused or surely not sent, 2 outcome unknown (may
have been sent: check before sending again), 64 usage error.

Examples:
  hashscan-sms sms send --sandbox --phone 13800000000 --template SMS_100000001 --param '{"code":"123456"}'
  hashscan-sms sms send --phone 13800000000 --template SMS_123456789 --param '{"code":"4711"}' --sign-name Acme`;

export const smsSendCommand: Command = {
  name: 'sms send',
  help: HELP,
  async run(argv, { io }) {
    const { values, positionals } = parseFlags(argv, OPTIONS, 'sms send');
    noArguments(positionals, 'sms send');
    // One rule with the library: a value is one number, a comma is never a separator.
    const phones = values.phone ?? [];
    if (phones.some((phone) => phone.includes(','))) {
      throw new UsageError(
        'sms send: --phone takes one number (a value holds a comma): repeat --phone for several recipients',
      );
    }
    if (phones.length === 0 || values.template === undefined) {
      throw new UsageError(
        'sms send: --phone and --template are required\nRun `hashscan-sms sms send --help` for usage.',
      );
    }
    const format = oneOf(values.format, FORMATS, 'format', 'table');
    const method = oneOf(values.method?.toUpperCase(), ['GET', 'POST'] as const, 'method', 'POST');
    let templateParam: string;
    try {
      const parsed: unknown = JSON.parse(values.param ?? '{}');
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      templateParam = values.param ?? '{}';
      const notText = Object.entries(parsed).find(([, value]) => typeof value !== 'string');
      if (notText !== undefined) {
        throw new UsageError(
          `sms send: --param values must be strings: write "${notText[0]}":"…" in quotes, e.g. '{"code":"123456"}' (the service refuses other JSON types)`,
        );
      }
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`sms send: --param must be a JSON object of strings, e.g. '{"code":"123456"}'`);
    }
    const diagnostics = new Diagnostics(io, new SecretMask(), values.verbose === true);
    const connection = await connectSms(values, diagnostics);
    // RequestId and BizId are what a user keeps to trace a send: shown whole, never cut to the column.
    const whole = new Set(['requestId', 'bizId']);
    const columns = ['status', 'code', 'category', 'outcome', 'requestId', 'bizId', 'message'].map((key) => ({
      key,
      width: key === 'message' ? 0 : key === 'requestId' ? 36 : 12,
      whole: whole.has(key),
    }));
    const writer = createWriter(format, columns, io.out, io.env);
    try {
      const result = await connection.client.send(
        {
          phoneNumbers: phones,
          templateCode: values.template,
          templateParam,
          ...(values['sign-name'] === undefined ? {} : { signName: values['sign-name'] }),
          ...(values['out-id'] === undefined ? {} : { outId: values['out-id'] }),
        },
        { method },
      );
      writer.write({
        status: 'sent',
        code: result.code,
        outcome: 'accepted',
        requestId: result.requestId,
        bizId: bizIdOf(result),
        message: result.message,
      });
      writer.end();
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof SmsError)) throw error;
      writer.write({
        status: 'failed',
        code: error.code,
        category: error.category,
        outcome: error.outcome,
        requestId: error.requestId,
        message: diagnostics.secrets.mask(messageOf(error)),
      });
      writer.end();
      if (error.stringToSign !== undefined) {
        // Already masked by the client (phone numbers, template values): compare it with the server's.
        diagnostics.line(
          `hashscan-sms: string-to-sign of this request: ${diagnostics.secrets.mask(error.stringToSign)}`,
        );
        diagnostics.line('hashscan-sms: `hashscan-sms sms sign --help` shows how to check a request by hand');
      }
      if (error.code === 'InvalidParameter' && error.outcome === 'not_sent') {
        diagnostics.line(`hashscan-sms: ${diagnostics.secrets.mask(error.message)}`);
      }
      return error.outcome === 'unknown' ? EXIT.review : EXIT.block;
    } finally {
      await connection.close();
    }
  },
};

function bizIdOf(result: object): string | undefined {
  const value = (result as { bizId?: unknown }).bizId;
  return typeof value === 'string' ? value : undefined;
}
