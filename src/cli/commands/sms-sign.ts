import { SecretMask } from '../../secrets/secret-mask.js';
import { explainSignature, SigningError, verifySignature } from '../../sms/signing/index.js';
import { type Command, noArguments, oneOf, parseFlags } from '../command.js';
import { UsageError } from '../usage-error.js';

const OPTIONS = {
  method: { type: 'string' },
  query: { type: 'string' },
  set: { type: 'string', multiple: true },
  format: { type: 'string', short: 'f' },
} as const;

const HELP = `Usage: hashscan-sms sms sign [--method GET|POST] [--query QUERY] [--set KEY=VALUE…]

Prints the canonical query and the string-to-sign of a request's parameters:
the tool for a \`SignatureDoesNotMatch\`. Paste the query string (GET) or form
body (POST) of the failing request with --query, and/or give parameters one by
one with --set. The secret is never printed, nor is any signature: when the
parameters hold a Signature and $SMS_ACCESS_KEY_SECRET is set, only whether it
matches is shown.

Options:
  --method GET|POST     the HTTP method the request was sent with (default POST)
  --query QUERY         a=1&b=2 form (percent-decoded; + is a space)
  --set KEY=VALUE       one parameter, verbatim (repeatable; overrides --query)
  -f, --format FORMAT   text (default) or json

Examples:
  hashscan-sms sms sign --method GET --query 'AccessKeyId=…&Action=SendSms&…&Signature=…'
  hashscan-sms sms sign --set Action=SendSms --set Timestamp=2024-05-01T08:09:10Z --set 'TemplateParam={"code":"1"}'`;

export const smsSignCommand: Command = {
  name: 'sms sign',
  help: HELP,
  async run(argv, { io }) {
    const { values, positionals } = parseFlags(argv, OPTIONS, 'sms sign');
    noArguments(positionals, 'sms sign');
    const method = oneOf(values.method?.toUpperCase(), ['GET', 'POST'] as const, 'method', 'POST');
    const format = oneOf(values.format, ['text', 'json'] as const, 'format', 'text');
    const params: Record<string, string> = Object.create(null);
    for (const [key, value] of new URLSearchParams(values.query ?? '')) params[key] = value;
    for (const pair of values.set ?? []) {
      const at = pair.indexOf('=');
      if (at <= 0) throw new UsageError(`sms sign: --set takes KEY=VALUE, got ${JSON.stringify(pair)}`);
      params[pair.slice(0, at)] = pair.slice(at + 1);
    }
    if (Object.keys(params).length === 0) throw new UsageError('sms sign: give the parameters with --query or --set');
    const secret = io.env.SMS_ACCESS_KEY_SECRET;
    const mask = new SecretMask();
    mask.add(secret);
    let canonical: string;
    let toSign: string;
    let matches: boolean | undefined;
    try {
      // The library's own explanation, the one its errors and signer use: what this tool shows is what is sent.
      ({ canonicalQuery: canonical, stringToSign: toSign } = explainSignature(method, params));
      if (params.Signature !== undefined && secret !== undefined && secret !== '') {
        matches = verifySignature(method, params, secret);
      }
    } catch (error) {
      if (error instanceof SigningError) throw new UsageError(`sms sign: ${mask.mask(error.message)}`);
      throw error;
    }
    // The secret could have been pasted into a parameter by mistake: mask it there too.
    const shown = { method, canonicalQuery: mask.mask(canonical), stringToSign: mask.mask(toSign) };
    const verdict = matches === undefined ? undefined : matches ? 'matches' : 'does NOT match';
    if (format === 'json') {
      io.out.write(
        `${JSON.stringify({ ...shown, ...(matches === undefined ? {} : { signatureMatches: matches }) })}\n`,
      );
    } else {
      io.out.write(`Canonical query:\n${shown.canonicalQuery}\n\nString to sign:\n${shown.stringToSign}\n`);
      if (verdict !== undefined) io.out.write(`\nSignature: ${verdict} (recomputed with $SMS_ACCESS_KEY_SECRET)\n`);
      else if (params.Signature !== undefined) io.out.write('\nSet SMS_ACCESS_KEY_SECRET to check the Signature.\n');
    }
    return verdict === 'does NOT match' ? 1 : 0;
  },
};
