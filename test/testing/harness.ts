import { randomUUID } from 'node:crypto';
import { setupServer } from 'msw/node';
import type { HashScanServiceOptions } from '../../src/doubles/hash-lookup-service.js';
import type { RecordedRequest } from '../../src/doubles/request-log.js';
import type { SentMessage, SmsAccount, SmsServiceOptions } from '../../src/doubles/sms-service.js';
import { startSandbox } from '../../src/sandbox/start-sandbox.js';
import { computeSignature } from '../../src/sms/signing/index.js';
import { createHashScanHandlers, createSmsHandlers } from '../../src/testing/msw-handlers.js';

/** One way of serving the doubles: msw handlers or the real sandbox server. */
export type Adapter = 'msw' | 'sandbox';
export const ADAPTERS: readonly Adapter[] = ['msw', 'sandbox'];

/** The doubles behind base URLs, whichever adapter serves them. */
export interface Harness {
  readonly hashScanUrl: string;
  readonly smsUrl: string;
  readonly requests: readonly RecordedRequest[];
  readonly messages: readonly SentMessage[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly hashScan?: HashScanServiceOptions;
  readonly sms?: SmsServiceOptions;
}

// Path prefixes on both, as clients keep a base URL's path.
const MSW_HASHSCAN_URL = 'https://hashscan.test/api/v1';
const MSW_SMS_URL = 'https://sms.test/gateway';

export async function startHarness(adapter: Adapter, options: HarnessOptions = {}): Promise<Harness> {
  if (adapter === 'sandbox') return startSandbox(options);
  const hashscan = createHashScanHandlers({ baseUrl: MSW_HASHSCAN_URL, ...options.hashScan });
  const sms = createSmsHandlers({ baseUrl: MSW_SMS_URL, ...options.sms });
  const server = setupServer(...hashscan, ...sms);
  server.listen({ onUnhandledRequest: 'error' });
  return {
    hashScanUrl: MSW_HASHSCAN_URL,
    smsUrl: MSW_SMS_URL,
    // Both logs, in arrival order.
    get requests() {
      return [...hashscan.requests, ...sms.requests].sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
    },
    messages: sms.messages,
    async close() {
      server.close();
    },
  };
}

/** The parameters the SMS client sends, unsigned; `undefined` in `overrides` removes one. */
export function smsParams(
  account: Pick<SmsAccount, 'accessKeyId'>,
  overrides: Readonly<Record<string, string | undefined>> = {},
): Record<string, string> {
  const params: Record<string, string | undefined> = {
    AccessKeyId: account.accessKeyId,
    Action: 'SendSms',
    Format: 'JSON',
    PhoneNumbers: '13800000000',
    SignName: 'Acme',
    TemplateCode: 'SMS_100000001',
    TemplateParam: JSON.stringify({ code: '1234' }),
    RegionId: 'cn-hangzhou',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    Version: '2017-05-25',
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** `params` plus the `Signature` computed for `method`. */
export function signed(
  method: 'GET' | 'POST',
  params: Readonly<Record<string, string>>,
  secret: string,
): Record<string, string> {
  return { ...params, Signature: computeSignature(method, params, secret) };
}

export interface RawAnswer {
  readonly status: number;
  readonly body: { Code: string; Message: string; RequestId: string };
}

/** Sends raw parameters the way the spec allows: a POST as a form body, any other method in the query. */
export async function sendRaw(
  smsUrl: string,
  method: string,
  params: Readonly<Record<string, string>>,
  headers: Readonly<Record<string, string>> = {},
): Promise<RawAnswer> {
  const query = new URLSearchParams(params).toString();
  const response =
    method === 'POST'
      ? await fetch(`${smsUrl}/`, {
          method,
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body: query,
        })
      : await fetch(`${smsUrl}/?${query}`, { method, headers });
  return { status: response.status, body: (await response.json()) as RawAnswer['body'] };
}
