import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { delay } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCAN_CHANNEL } from '../../src/diagnostics/tracing-channels.js';
import type { HashScanClientOptions } from '../../src/hashscan/hashscan-client.js';
import { BASE_URL, HIT, json, MD5, makeClient, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';
import {
  captureChannel,
  type HistogramPoint,
  type OtelHarness,
  otelHarness,
  telemetryText,
  useContextManager,
} from '../helpers/otel.js';

const server = useMswServer();
useContextManager();

const API_KEY = 'SENTINEL-API-KEY-7f3a9c';
let harness: OtelHarness;
let channel: ReturnType<typeof captureChannel>;

beforeEach(() => {
  harness = otelHarness();
  channel = captureChannel(SCAN_CHANNEL);
});

afterEach(async () => {
  channel.stop();
  // Whatever a test did, the key never reached a span, an event, a status, a metric point or a channel context.
  const everything = `${await telemetryText(harness)}\n${channel.texts.join('\n')}`;
  expect(everything).not.toContain(API_KEY);
  expect(everything).not.toContain(encodeURIComponent(API_KEY));
  await harness.shutdown();
});

function client(options: HashScanClientOptions = {}) {
  return makeClient({
    apiKey: API_KEY,
    telemetry: { tracerProvider: harness.tracerProvider, meterProvider: harness.meterProvider },
    ...options,
  });
}

/** Runs `work` under an application span, as a request handler would; returns that span. */
async function underAppSpan(work: () => Promise<unknown>): Promise<ReadableSpan> {
  const app = harness.tracerProvider.getTracer('app').startSpan('POST /upload');
  await context.with(trace.setSpan(ROOT_CONTEXT, app), work);
  app.end();
  const span = harness.spans().find((each) => each.name === 'POST /upload');
  if (span === undefined) throw new Error('no app span');
  return span;
}

const named = (name: string) => harness.spans().filter((span) => span.name === name);
const only = (name: string): ReadableSpan => {
  const spans = named(name);
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
};

describe('HashScanClient telemetry (real OpenTelemetry SDK, msw)', () => {
  it('a non-detection: an operation span under the caller, one GET span, url.full redacted, metric points', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    const app = await underAppSpan(() => client().scan(SHA256.toUpperCase()));
    const operation = only('HashScanClient.scan');
    const attempt = only('GET');
    expect(operation.kind).toBe(SpanKind.INTERNAL);
    expect(operation.parentSpanContext?.spanId).toBe(app.spanContext().spanId);
    expect(operation.spanContext().traceId).toBe(app.spanContext().traceId);
    expect(operation.attributes).toMatchObject({
      'hashscan.hash': SHA256,
      'hashscan.hash.algorithm': 'sha256',
      'hashscan.verdict': 'not_detected',
      'hashscan.cache': 'none',
      'hashscan.attempts': 1,
    });
    expect(operation.status.code).toBe(SpanStatusCode.UNSET);
    expect(attempt.kind).toBe(SpanKind.CLIENT);
    expect(attempt.parentSpanContext?.spanId).toBe(operation.spanContext().spanId);
    expect(attempt.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': 'hashscan.test',
      'server.port': 443,
      'url.full': `${BASE_URL}/hash_scan?api_key=REDACTED&hash=${SHA256}`,
      'http.response.status_code': 200,
    });
    const [duration] = await harness.points<HistogramPoint['value']>('http.client.request.duration');
    expect(duration?.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': 'hashscan.test',
      'server.port': 443,
      'http.response.status_code': 200,
    });
    expect(duration?.value.count).toBe(1);
    expect((await harness.points('hashscan.lookups')).map((p) => [p.attributes, p.value])).toEqual([
      [{ 'hashscan.verdict': 'not_detected', 'hashscan.cache': 'none' }, 1],
    ]);
    expect(channel.events).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
  });

  it('a hit: verdict malicious, the detection source, not an error', async () => {
    serveLookup(server, () => json(HIT));
    await client().scan(SHA256);
    const operation = only('HashScanClient.scan');
    expect(operation.attributes).toMatchObject({
      'hashscan.verdict': 'malicious',
      'hashscan.detection_source': 'engine-x',
    });
    expect(operation.status.code).toBe(SpanStatusCode.UNSET);
    expect((await harness.points('hashscan.lookups'))[0]?.attributes).toEqual({
      'hashscan.verdict': 'malicious',
      'hashscan.cache': 'none',
    });
  });

  it('a 500 then a success: two GET spans, the resend count, a retry event, two duration points', async () => {
    serveLookup(server, (_hash, call) => (call === 1 ? json({}, 500) : json(NOT_DETECTED)));
    await client().scan(SHA256);
    const operation = only('HashScanClient.scan');
    const [first, second] = named('GET');
    expect(first?.attributes).toMatchObject({ 'http.response.status_code': 500, 'error.type': '500' });
    expect(first?.attributes['http.request.resend_count']).toBeUndefined();
    expect(first?.status.code).toBe(SpanStatusCode.ERROR);
    expect(second?.attributes).toMatchObject({ 'http.response.status_code': 200, 'http.request.resend_count': 1 });
    expect(second?.attributes['error.type']).toBeUndefined();
    for (const span of [first, second]) expect(span?.parentSpanContext?.spanId).toBe(operation.spanContext().spanId);
    expect(operation.events.map((event) => event.name)).toEqual(['retry']);
    expect(operation.events[0]?.attributes).toMatchObject({
      'retry.kind': 'backoff',
      'retry.attempt': 1,
      'retry.reason': 'HTTP_STATUS',
    });
    expect(operation.attributes).toMatchObject({ 'hashscan.verdict': 'not_detected', 'hashscan.attempts': 2 });
    const durations = await harness.points<HistogramPoint['value']>('http.client.request.duration');
    expect(durations.map((point) => point.attributes['http.response.status_code']).sort()).toEqual([200, 500]);
  });

  it('a time-out: error.type TIMEOUT on the attempt and the operation, status ERROR', async () => {
    serveLookup(server, async () => {
      await delay('infinite');
      return json(NOT_DETECTED);
    });
    const error = await client({ timeoutMs: 50, retry: false })
      .scan(SHA256)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    const operation = only('HashScanClient.scan');
    const attempt = only('GET');
    expect(attempt.attributes['error.type']).toBe('TIMEOUT');
    expect(attempt.attributes['http.response.status_code']).toBeUndefined();
    expect(operation.status).toEqual({ code: SpanStatusCode.ERROR, message: 'TIMEOUT' });
    expect(operation.attributes).toMatchObject({ 'hashscan.verdict': 'error', 'error.type': 'TIMEOUT' });
    expect((await harness.points('hashscan.lookups'))[0]?.attributes).toEqual({
      'hashscan.verdict': 'error',
      'hashscan.cache': 'none',
      'error.type': 'TIMEOUT',
    });
    expect(channel.events).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
  });

  it('a cache hit: an operation span with hashscan.cache=memory and no attempt span', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const cached = client({ cache: {} });
    await cached.scan(SHA256);
    harness.exporter.reset();
    await cached.scan(SHA256);
    expect(requests).toHaveLength(1);
    expect(harness.spans().map((span) => span.name)).toEqual(['HashScanClient.scan']);
    const operation = only('HashScanClient.scan');
    expect(operation.attributes).toMatchObject({ 'hashscan.cache': 'memory', 'hashscan.attempts': 0 });
    expect(operation.events.map((event) => [event.name, event.attributes])).toEqual([
      ['cache.hit', { 'hashscan.cache.level': 'memory' }],
    ]);
    const lookups = await harness.points('hashscan.lookups');
    expect(lookups.map((point) => [point.attributes['hashscan.cache'], point.value])).toEqual([
      ['none', 1],
      ['memory', 1],
    ]);
  });

  it('a batch: one operation span per looked-up hash, each under the caller, each with its own attempt', async () => {
    serveLookup(server, (hash) => json(hash === MD5 ? HIT : NOT_DETECTED));
    const app = await underAppSpan(() => client().scanMany([SHA256, MD5, 'not a hash']));
    const operations = named('HashScanClient.scan');
    expect(operations.map((span) => span.attributes['hashscan.hash']).sort()).toEqual([MD5, SHA256].sort());
    for (const operation of operations) {
      expect(operation.parentSpanContext?.spanId).toBe(app.spanContext().spanId);
      const attempts = named('GET').filter((span) => span.parentSpanContext?.spanId === operation.spanContext().spanId);
      expect(attempts).toHaveLength(1);
    }
    expect(channel.events.filter((event) => event === 'start')).toHaveLength(2);
    const lookups = await harness.points('hashscan.lookups');
    expect(lookups.map((point) => point.attributes['hashscan.verdict']).sort()).toEqual(['malicious', 'not_detected']);
  });

  it('telemetry: false makes no span, while the tracing channel still publishes', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    await client({ telemetry: false }).scan(SHA256);
    expect(harness.spans()).toEqual([]);
    expect(channel.events).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
  });
});

describe('one masking for spans and channels', () => {
  it('a hit whose source echoes the key: the span and the channel both show it masked, never the raw answer', async () => {
    serveLookup(server, () => json({ ...HIT, source: `engine ${API_KEY}`, echo: { api_key: API_KEY } }));
    await expect(client().scan(SHA256)).resolves.toMatchObject({ verdict: 'malicious' });
    expect(only('HashScanClient.scan').attributes['hashscan.detection_source']).toBe('engine ***');
    expect(channel.seen.at(-1)?.[1]).toMatchObject({ result: { verdict: 'malicious', source: 'engine ***' } });
  });
});
