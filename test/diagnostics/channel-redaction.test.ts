import { randomUUID } from 'node:crypto';
import { tracingChannel } from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SCAN_CHANNEL,
  type ScanTraceContext,
  SEND_CHANNEL,
  type SendTraceContext,
} from '../../src/diagnostics/tracing-channels.js';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { SmsClient } from '../../src/sms/index.js';
import { stringToSign } from '../../src/sms/signing/index.js';
import { useMswServer } from '../helpers/msw.js';
import { readRequest } from '../sms/sms-service.js';

const server = useMswServer();

const SCAN_URL = 'https://hashscan.test';
const SMS_URL = 'https://sms.test';
const API_KEY = 'SENTINEL-API-KEY-5f3a91';
const KEY_ID = 'LTAI5tSENTINELKEYID42';
const SECRET = 'SENTINEL-SECRET-b7e2d9';
const PHONES = ['13912345678', '13800000001'];
const OTP = '839201';
const NAME = 'Zhang-Wei-7731';
const HASH = '275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f';

/** Every signature the SMS service received: none may be published. */
let signatures: string[];
/** Every text each published message showed at the moment it was published. */
let published: { channel: string; event: string; context: object; texts: string[] }[];
let unsubscribe: () => void;

/**
 * Every string reachable from `value`: own properties, enumerable or not,
 * symbol-keyed ones, getters' values, prototypes other than the built-ins',
 * Map and Set entries, with cycles cut.
 */
function strings(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'symbol') return [String(value)];
  if (typeof value !== 'object' && typeof value !== 'function') return [];
  if (value === null || seen.has(value)) return [];
  seen.add(value);
  const found: string[] = [];
  if (value instanceof Map || value instanceof Set) {
    for (const entry of value) found.push(...strings(entry, seen));
  }
  for (const key of Reflect.ownKeys(value)) {
    found.push(String(key));
    let item: unknown;
    try {
      item = (value as Record<PropertyKey, unknown>)[key];
    } catch {
      continue;
    }
    found.push(...strings(item, seen));
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== null && proto !== Object.prototype && proto !== Error.prototype && proto !== Function.prototype) {
    found.push(...strings(proto, seen));
  }
  return found;
}

function subscribe(): () => void {
  const undo: (() => void)[] = [];
  for (const name of [SCAN_CHANNEL, SEND_CHANNEL]) {
    const channel = tracingChannel<unknown, object>(name);
    const on = (event: string) => (message: unknown) => {
      const context = message as object;
      const texts = [
        ...strings(context),
        inspect(context, { depth: Number.POSITIVE_INFINITY, showHidden: true, getters: true }),
        JSON.stringify(context),
      ];
      for (const value of Object.values(context)) {
        if (value instanceof Error)
          texts.push(String(value.stack), String(value), inspect(value, { showHidden: true }));
      }
      published.push({ channel: name, event, context, texts });
    };
    const handlers = {
      start: on('start'),
      end: on('end'),
      asyncStart: on('asyncStart'),
      asyncEnd: on('asyncEnd'),
      error: on('error'),
    };
    channel.subscribe(handlers);
    undo.push(() => channel.unsubscribe(handlers));
  }
  return () => {
    for (const step of undo) step();
  };
}

beforeEach(() => {
  signatures = [];
  published = [];
  unsubscribe = subscribe();
});

afterEach(() => {
  unsubscribe();
  const everything = published.flatMap((message) => message.texts).join('\n');
  const sentinels = [API_KEY, KEY_ID, SECRET, ...PHONES, OTP, NAME, ...signatures.filter((s) => s !== '')];
  expect(published.length).toBeGreaterThan(0);
  for (const sentinel of sentinels) {
    for (const spelling of [sentinel, encodeURIComponent(sentinel), encodeURIComponent(encodeURIComponent(sentinel))]) {
      expect(everything).not.toContain(spelling);
    }
  }
});

const events = (channel: string) => published.filter((m) => m.channel === channel).map((m) => m.event);
const lastContext = <T>(channel: string) => published.filter((m) => m.channel === channel).at(-1)?.context as T;

type SmsMode = 'ok' | 'refusal' | 'mismatch' | 'echo';

function serveSms(mode: SmsMode): void {
  server.use(
    http.all(`${SMS_URL}/`, async ({ request }) => {
      const { method, wire, params } = await readRequest(request);
      signatures.push(params.Signature ?? '');
      const reply = (status: number, Code: string, Message: string, RequestId = randomUUID().toUpperCase()) =>
        HttpResponse.json({ Code, Message, RequestId }, { status });
      switch (mode) {
        case 'ok':
          return HttpResponse.json({ Code: 'OK', Message: 'OK', RequestId: randomUUID(), BizId: '9006^0' });
        case 'refusal':
          return reply(
            400,
            'isv.MOBILE_NUMBER_ILLEGAL',
            `invalid mobile ${params.PhoneNumbers} ${params.TemplateParam}`,
          );
        case 'mismatch':
          // The vendor's answer: the server's string to sign, with every value of the request in it.
          return reply(
            400,
            'SignatureDoesNotMatch',
            `Specified signature does not match our calculation. server string to sign is:${stringToSign(method, params)}`,
            '',
          );
        case 'echo':
          // A service (or a proxy) that echoes the whole request, signature included, in its answer.
          return reply(500, 'ServiceUnavailable', `request ${wire} ${JSON.stringify(params)} failed`);
      }
    }),
  );
}

const smsClient = (options: { accessKeySecret?: string } = {}) =>
  new SmsClient({
    accessKeyId: KEY_ID,
    accessKeySecret: SECRET,
    baseUrl: SMS_URL,
    retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 },
    ...options,
  });

const send = (sms: SmsClient, method: 'GET' | 'POST') =>
  sms.send(
    { phoneNumbers: PHONES, templateCode: 'SMS_100000001', templateParam: { code: OTP, name: NAME } },
    { method },
  );

describe('hashscan-sms:send publishes no phone number, template value, key, secret or signature', () => {
  it.each(['POST', 'GET'] as const)('a send that succeeds (%s)', async (method) => {
    serveSms('ok');
    const sent = await send(smsClient(), method);
    expect(events(SEND_CHANNEL)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(lastContext<SendTraceContext>(SEND_CHANNEL).result).toEqual({ outcome: 'sent', requestId: sent.requestId });
  });

  it.each(['POST', 'GET'] as const)('a refusal whose message quotes the numbers and values (%s)', async (method) => {
    serveSms('refusal');
    await expect(send(smsClient(), method)).rejects.toMatchObject({ code: 'isv.MOBILE_NUMBER_ILLEGAL' });
    expect(events(SEND_CHANNEL)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    const { error } = lastContext<SendTraceContext>(SEND_CHANNEL);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'SmsError', code: 'isv.MOBILE_NUMBER_ILLEGAL', outcome: 'rejected' });
  });

  it.each(['POST', 'GET'] as const)('SignatureDoesNotMatch echoing the string to sign (%s)', async (method) => {
    serveSms('mismatch');
    const caught = await send(smsClient({ accessKeySecret: 'SENTINEL-WRONG-SECRET-1' }), method).catch((e) => e);
    expect(caught).toMatchObject({ code: 'SignatureDoesNotMatch', outcome: 'rejected' });
    // The caller's own error quotes the echo (its numbers); the channel's copy must not.
    expect(String(caught.message)).toContain(PHONES[0]);
    expect(lastContext<SendTraceContext>(SEND_CHANNEL).error).toMatchObject({
      code: 'SignatureDoesNotMatch',
      outcome: 'rejected',
      attempts: expect.any(Number),
    });
  });

  it('a service that echoes the whole request, signature and key id included', async () => {
    serveSms('echo');
    await expect(send(smsClient(), 'GET')).rejects.toMatchObject({ code: 'ServiceUnavailable' });
    expect(events(SEND_CHANNEL)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
  });
});

describe('hashscan-sms:scan publishes no API key, even when the service echoes the request', () => {
  const scanClient = () =>
    new HashScanClient({ apiKey: API_KEY, baseUrl: SCAN_URL, cache: false, retry: { retries: 1, minDelayMs: 1 } });

  function serveScan(respond: (url: string, key: string) => Response): void {
    server.use(
      http.get(`${SCAN_URL}/hash_scan`, ({ request }) =>
        respond(request.url, new URL(request.url).searchParams.get('api_key') ?? ''),
      ),
    );
  }

  it('a lookup that succeeds', async () => {
    serveScan(() =>
      HttpResponse.json({ status: 'success', is_virus: false, message: 'No active service detected this file' }),
    );
    await expect(scanClient().scan(HASH)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(events(SCAN_CHANNEL)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(lastContext<ScanTraceContext>(SCAN_CHANNEL).result).toEqual({ verdict: 'not_detected' });
  });

  it('a hit whose body echoes the request (the key in source, data and extra fields)', async () => {
    serveScan((url, key) =>
      HttpResponse.json({
        status: 'success',
        is_virus: true,
        source: `engine ${key}`,
        data: { sha256: HASH, first_seen: key },
        request: { url, api_key: key },
      }),
    );
    const result = await scanClient().scan(HASH);
    expect(result).toMatchObject({ verdict: 'malicious' });
    // The caller's own result is masked too (issue 36): the answer is kept, the key is not.
    expect(JSON.stringify(result.raw)).not.toContain(API_KEY);
    expect(result).toMatchObject({ source: 'engine ***', raw: { data: { first_seen: '***' } } });
    expect(lastContext<ScanTraceContext>(SCAN_CHANNEL).result).toEqual({ verdict: 'malicious', source: 'engine ***' });
  });

  it('a refusal whose body echoes the key', async () => {
    serveScan((url, key) => HttpResponse.json({ status: 'error', message: `bad key ${key}`, url }, { status: 403 }));
    await expect(scanClient().scan(HASH)).rejects.toMatchObject({ code: 'HTTP_STATUS' });
    expect(events(SCAN_CHANNEL)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(lastContext<ScanTraceContext>(SCAN_CHANNEL).error).toMatchObject({
      name: 'HashScanError',
      code: 'HTTP_STATUS',
      status: 403,
    });
  });
});
