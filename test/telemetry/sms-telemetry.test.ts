import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEND_CHANNEL } from '../../src/diagnostics/tracing-channels.js';
import { SmsClient, type SmsClientOptions } from '../../src/sms/index.js';
import { createSmsHandlers } from '../../src/testing/index.js';
import type { FetchLike } from '../../src/transport/call/transport.js';
import { useMswServer } from '../helpers/msw.js';
import { captureChannel, type OtelHarness, otelHarness, telemetryText } from '../helpers/otel.js';
import { readRequest } from '../sms/sms-service.js';

const server = useMswServer();

const BASE_URL = 'https://sms.test';
const KEY_ID = 'LTAI5tSENTINELKEYID42';
const SECRET = 'SENTINEL-SECRET-b7e2d9';
const PHONE = '13912345678';
const OTP = '839201';
const TEMPLATE = 'SMS_100000001';

let harness: OtelHarness;
let channel: ReturnType<typeof captureChannel>;
/** The signatures the client sent, to search for in the telemetry. */
let signatures: string[];

beforeEach(() => {
  harness = otelHarness();
  channel = captureChannel(SEND_CHANNEL);
  signatures = [];
  server.use(
    ...createSmsHandlers({
      baseUrl: BASE_URL,
      accounts: [{ accessKeyId: KEY_ID, accessKeySecret: SECRET, plan: 'member' }],
    }),
  );
});

afterEach(async () => {
  channel.stop();
  const everything = `${await telemetryText(harness)}\n${channel.texts.join('\n')}`;
  expect(signatures.length).toBeGreaterThan(0);
  for (const sentinel of [KEY_ID, SECRET, PHONE, OTP, ...signatures]) {
    expect(everything).not.toContain(sentinel);
    expect(everything).not.toContain(encodeURIComponent(sentinel));
  }
  await harness.shutdown();
});

function client(options: SmsClientOptions = {}): SmsClient {
  const fetch: FetchLike = async (input, init) => {
    signatures.push((await readRequest(input)).params.Signature ?? '');
    return globalThis.fetch(input, init);
  };
  return new SmsClient({
    accessKeyId: KEY_ID,
    accessKeySecret: SECRET,
    baseUrl: BASE_URL,
    retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 },
    telemetry: { tracerProvider: harness.tracerProvider, meterProvider: harness.meterProvider },
    fetch,
    ...options,
  });
}

const send = (sms: SmsClient, method: 'GET' | 'POST') =>
  sms.send({ phoneNumbers: [PHONE, '13800000001'], templateCode: TEMPLATE, templateParam: { code: OTP } }, { method });

const spanNamed = (name: string) => {
  const spans = harness.spans().filter((span) => span.name === name);
  expect(spans).toHaveLength(1);
  return spans[0];
};

describe('SmsClient telemetry (real OpenTelemetry SDK, msw service double)', () => {
  it('a send: SmsClient.send with one POST span, the outcome, the billed estimate and sms.sends', async () => {
    const sent = await send(client(), 'POST');
    const operation = spanNamed('SmsClient.send');
    const attempt = spanNamed('POST');
    expect(operation?.kind).toBe(SpanKind.INTERNAL);
    expect(operation?.attributes).toEqual({
      'sms.phone_count': 2,
      'sms.template_code': TEMPLATE,
      'sms.method': 'POST',
      'sms.outcome': 'sent',
      'sms.attempts': 1,
      'sms.billed_messages.estimate': 2,
      'sms.request_id': sent.requestId,
    });
    expect(attempt?.kind).toBe(SpanKind.CLIENT);
    expect(attempt?.parentSpanContext?.spanId).toBe(operation?.spanContext().spanId);
    expect(attempt?.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': 'sms.test',
      'server.port': 443,
      'url.full': `${BASE_URL}/`,
      'http.response.status_code': 200,
      'sms.service_code': 'OK',
    });
    expect((await harness.points('sms.sends')).map((point) => [point.attributes, point.value])).toEqual([
      [{ 'sms.outcome': 'sent' }, 1],
    ]);
    expect(channel.events).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
  });

  it('a signature refusal over GET: rejected, error.type, the service code, url.full without a secret', async () => {
    const error = await send(client({ accessKeySecret: 'SENTINEL-WRONG-SECRET-1' }), 'GET').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SignatureDoesNotMatch', outcome: 'rejected' });
    const operation = spanNamed('SmsClient.send');
    const attempt = spanNamed('GET');
    expect(operation?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'SignatureDoesNotMatch' });
    expect(operation?.attributes).toMatchObject({
      'sms.outcome': 'rejected',
      'sms.billed_messages.estimate': 0,
      'error.type': 'SignatureDoesNotMatch',
    });
    expect(attempt?.attributes).toMatchObject({
      'http.response.status_code': 400,
      'error.type': '400',
      'sms.service_code': 'SignatureDoesNotMatch',
    });
    const url = new URL(String(attempt?.attributes['url.full']));
    for (const name of ['AccessKeyId', 'Signature', 'PhoneNumbers', 'TemplateParam']) {
      expect(url.searchParams.get(name)).toBe('REDACTED');
    }
    expect(url.searchParams.get('TemplateCode')).toBe(TEMPLATE);
    expect((await harness.points('sms.sends'))[0]?.attributes).toEqual({
      'sms.outcome': 'rejected',
      'error.type': 'SignatureDoesNotMatch',
    });
    expect(channel.events).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
  });
});
