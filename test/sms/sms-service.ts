import { randomUUID } from 'node:crypto';
import { HttpResponse, http } from 'msw';
import type { SetupServer } from 'msw/node';
import { expect } from 'vitest';
import { SmsClient, type SmsClientOptions, SmsError } from '../../src/sms/index.js';
import { verifySignature } from '../../src/sms/signing/index.js';

export const BASE_URL = 'https://sms.test';
export const ACCESS_KEY_ID = 'testKeyId0123';
export const ACCESS_KEY_SECRET = 'testSecret4567';

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const REQUEST = { phoneNumbers: '13800000000', templateCode: 'SMS_123456789', templateParam: { code: '1234' } };

/** Awaits a send that must reject with an {@link SmsError}, and returns the error. */
export const rejection = (promise: Promise<unknown>): Promise<SmsError> =>
  promise.then(
    () => expect.fail('expected the send to reject'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(SmsError);
      return error as SmsError;
    },
  );

/** A client with tiny retry delays. */
export function makeClient(options: SmsClientOptions = {}): SmsClient {
  return new SmsClient({
    accessKeyId: ACCESS_KEY_ID,
    accessKeySecret: ACCESS_KEY_SECRET,
    baseUrl: BASE_URL,
    retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

/**
 * Decodes `a=b&c=d` strictly: `%XX` only, `+` stays a plus. A client that
 * wrote a space as `+` would then fail the signature check, as it should.
 */
export function parseWire(wire: string): Record<string, string> {
  const params: Record<string, string> = {};
  if (wire === '') return params;
  for (const pair of wire.split('&')) {
    const at = pair.indexOf('=');
    const name = decodeURIComponent(at < 0 ? pair : pair.slice(0, at));
    params[name] = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1));
  }
  return params;
}

/** A request as the test double received it. */
export interface Received {
  readonly method: string;
  /** The raw query (GET) or form body (POST). */
  readonly wire: string;
  readonly params: Record<string, string>;
  readonly headers: Headers;
  readonly signatureValid: boolean;
}

/** The method, raw wire text and decoded parameters of a fetch `Request`. */
export async function readRequest(request: Request): Promise<Omit<Received, 'signatureValid'>> {
  const wire = request.method === 'GET' ? new URL(request.url).search.slice(1) : await request.clone().text();
  return { method: request.method, wire, params: parseWire(wire), headers: request.headers };
}

/** Whether a request is signed with the test key pair, for the method it was sent with. */
export const signedWithTestKey = (method: string, params: Record<string, string>): boolean =>
  params.AccessKeyId === ACCESS_KEY_ID && verifySignature(method, params, ACCESS_KEY_SECRET);

const answer = (status: number, Code: string, Message: string, RequestId: string = randomUUID()) =>
  HttpResponse.json({ Code, Message, RequestId }, { status });

/**
 * The AK/SK mode of the SMS service at `${BASE_URL}/`, as far as the spec
 * goes: the routing rules of part 4, the signature check (with the method
 * received) before the parameter check, then `InvalidParameter` for a
 * `TemplateParam` that is not JSON. Every request is recorded.
 */
export function serveSms(server: SetupServer, secrets: Readonly<Record<string, string>> = {}): Received[] {
  const keys: Record<string, string> = { [ACCESS_KEY_ID]: ACCESS_KEY_SECRET, ...secrets };
  const received: Received[] = [];
  server.use(
    http.all(`${BASE_URL}/`, async ({ request }) => {
      if (request.method !== 'GET' && request.method !== 'POST') {
        return answer(405, 'MethodNotAllowed', 'Method not allowed', '');
      }
      const { method, wire, params, headers } = await readRequest(request);
      const secret = params.AccessKeyId === undefined ? undefined : keys[params.AccessKeyId];
      const signatureValid = secret !== undefined && verifySignature(method, params, secret);
      received.push({ method, wire, params, headers, signatureValid });

      // Routing, spec part 4: anything that would leave the AK/SK mode is an error here.
      if (['u', 'p', 'm', 'c'].every((name) => name in params)) return answer(400, 'WrongMode', 'gateway protocol');
      if (params.Version === '2021-01-11' || headers.has('x-tc-action') || headers.has('x-tc-version')) {
        return answer(400, 'WrongMode', 'second vendor protocol');
      }
      if (method === 'GET' && params.Action !== 'SendSms') return answer(400, 'WrongMode', 'SysKey mode');

      if (secret === undefined) return answer(400, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
      if (!signatureValid) {
        return answer(400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.', '');
      }
      try {
        JSON.parse(params.TemplateParam ?? '');
      } catch {
        return answer(400, 'InvalidParameter', 'TemplateParam is not valid JSON');
      }
      return HttpResponse.json({ Code: 'OK', Message: 'OK', RequestId: randomUUID(), BizId: '900619746936498440^0' });
    }),
  );
  return received;
}
