import { inspect } from 'node:util';
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/observe/logger.js';
import { SmsClient, type SmsClientOptions } from '../../src/sms/index.js';
import { stringToSign } from '../../src/sms/signing/index.js';
import type { FetchLike } from '../../src/transport/call/transport.js';
import { useMswServer } from '../helpers/msw.js';
import { BASE_URL, REQUEST, readRequest } from './sms-service.js';

const server = useMswServer();

const SECRET = 'SENTINEL-SECRET-abc123';
const KEY_ID = 'LTAI5tSENTINELKEY42';
const OTP = '839201';

/** Everything a leak could show up in, from one run of the client. */
interface Capture {
  readonly texts: string[];
  readonly signatures: string[];
  readonly client: SmsClient;
}

/** A client whose logs, sent signatures and thrown error are all captured. */
function capture(
  options: Partial<SmsClientOptions> = {},
): Capture & { send: (method?: 'GET' | 'POST') => Promise<void> } {
  const texts: string[] = [];
  const signatures: string[] = [];
  const line = (message: string, details?: Record<string, unknown>) => {
    texts.push(message, JSON.stringify(details));
  };
  const logger: Logger = { structured: true, debug: line, info: line, warn: line, error: line };
  const fetch: FetchLike = async (input, init) => {
    signatures.push((await readRequest(input)).params.Signature ?? '');
    return options.fetch ? options.fetch(input, init) : globalThis.fetch(input, init);
  };
  const client = new SmsClient({
    accessKeyId: KEY_ID,
    accessKeySecret: SECRET,
    baseUrl: BASE_URL,
    retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 },
    ...options,
    logger,
    fetch,
  });
  texts.push(inspect(client, { depth: 10 }), JSON.stringify(client));
  const send = async (method: 'GET' | 'POST' = 'GET') => {
    try {
      await client.send({ ...REQUEST, templateParam: { code: OTP } }, { method });
    } catch (error) {
      texts.push(
        String((error as Error).message),
        String((error as Error).stack),
        JSON.stringify(error),
        inspect(error, { depth: 10 }),
        inspect(error, { depth: 10, showHidden: true }),
      );
    }
  };
  return { texts, signatures, client, send };
}

/** Every spelling a value can take on the wire or in a log. */
const spellings = (value: string): string[] => [
  value,
  encodeURIComponent(value),
  encodeURIComponent(encodeURIComponent(value)),
  new URLSearchParams({ v: value }).toString().slice(2),
];

function expectNoLeak({ texts, signatures }: Capture): void {
  expect(signatures.length).toBeGreaterThan(0);
  const haystack = texts.join('\n');
  for (const secret of [SECRET, KEY_ID, ...signatures]) {
    for (const spelling of spellings(secret)) expect(haystack).not.toContain(spelling);
  }
}

/** A hostile service that echoes everything it got, the secret included, in its Message. */
const echo = (status: number, shape: 'service' | 'text') =>
  http.all(`${BASE_URL}/`, async ({ request }) => {
    const { method, wire, params } = await readRequest(request);
    const everything = `${wire} | ${stringToSign(method, params)} | ${params.Signature} | ${SECRET} | ${KEY_ID}`;
    return shape === 'service'
      ? HttpResponse.json({ Code: 'SignatureDoesNotMatch', Message: everything, RequestId: '' }, { status })
      : new HttpResponse(everything, { status });
  });

describe('no secret, signature or full key id ever leaves the client', () => {
  it('in the logs and inspection of a successful GET send', async () => {
    server.use(http.all(`${BASE_URL}/`, () => HttpResponse.json({ Code: 'OK', Message: 'OK', RequestId: 'r' })));
    const run = capture();
    await run.send('GET');
    expectNoLeak(run);
    const logs = run.texts.join('\n');
    expect(logs).toContain('AccessKeyId=LTAI***');
    expect(logs).toContain('Signature=***');
    // Template variables (often a one-time code) and phone numbers stay out of logged URLs too.
    expect(logs).toContain('TemplateParam=***');
    expect(logs).toContain('PhoneNumbers=1380***');
    expect(logs).not.toContain(OTP);
    expect(inspect(run.client)).toContain("accessKeyId: 'LTAI***'");
  });

  it.each([
    ['a service error echoing the request', () => echo(400, 'service')],
    ['an unreadable 2xx body echoing it', () => echo(200, 'text')],
    ['an unreadable 5xx body echoing it', () => echo(502, 'text')],
    [
      'a time-out',
      () =>
        http.all(`${BASE_URL}/`, async () => {
          await delay('infinite');
          return HttpResponse.json({});
        }),
    ],
  ])('in %s', async (_name, handler) => {
    server.use(handler());
    for (const method of ['GET', 'POST'] as const) {
      const run = capture({ timeoutMs: 50 });
      await run.send(method);
      expect(run.texts.length).toBeGreaterThan(2);
      expectNoLeak(run);
    }
  });

  it('in a network error whose message quotes the whole URL', async () => {
    const fetch: FetchLike = async (input) => {
      throw new TypeError(`fetch failed for ${input.url}`, {
        cause: Object.assign(new Error(`connect ECONNREFUSED ${input.url}`), { code: 'ECONNREFUSED' }),
      });
    };
    const run = capture({ fetch });
    await run.send('GET');
    expect(run.signatures).toHaveLength(2);
    expectNoLeak(run);
  });

  it('in a configuration error', () => {
    let message = '';
    try {
      new SmsClient({ accessKeyId: KEY_ID, accessKeySecret: SECRET, baseUrl: `http://${SECRET}.example.com` });
    } catch (error) {
      message = `${(error as Error).message}\n${(error as Error).stack}\n${inspect(error)}`;
    }
    expect(message).toContain('baseUrl');
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain(KEY_ID);
  });
});
