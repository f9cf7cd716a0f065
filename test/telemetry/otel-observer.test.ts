import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import type { ObserverEvent, ScanOperation, SendOperation } from '../../src/observe/events.js';
import { createTelemetry } from '../../src/telemetry/create-telemetry.js';
import { type HistogramPoint, type OtelHarness, otelHarness, useContextManager } from '../helpers/otel.js';

useContextManager();

const SHA256 = 'a'.repeat(64);
const scanOp = (): ScanOperation => ({
  client: 'hashscan',
  operation: 'scan',
  hash: SHA256,
  algorithm: 'sha256',
  sourceId: 'src-1',
});
const sendOp = (): SendOperation => ({
  client: 'sms',
  operation: 'send',
  phoneCount: 2,
  templateCode: 'SMS_1',
  method: 'GET',
});
const stats = { circuit: 'closed', retryTokens: 7 };
const owner = { stats: () => stats };

let harness: OtelHarness;
afterEach(async () => {
  await harness.shutdown();
});

function observer(client: 'hashscan' | 'sms' = 'hashscan') {
  harness = otelHarness();
  const made = createTelemetry(
    { tracerProvider: harness.tracerProvider, meterProvider: harness.meterProvider },
    { client, baseUrl: () => 'https://h.example:8443', owner },
  );
  if (made === undefined) throw new Error('telemetry should be on');
  return (event: ObserverEvent) => made.observe(event);
}

const attemptStart = (op: ScanOperation | SendOperation, attempt: number, url: string): ObserverEvent => ({
  type: 'attempt:start',
  client: op.client,
  op,
  attempt,
  method: 'GET',
  url,
  serverAddress: 'h.example',
  serverPort: 8443,
});

describe('OpenTelemetry subscriber (synthetic events)', () => {
  it('makes an operation span with a CLIENT span per attempt, resend counts, retry events and metric points', async () => {
    const emit = observer();
    const op = scanOp();
    const url = `https://h.example:8443/hash_scan?api_key=***&hash=${SHA256}`;
    const parent = harness.tracerProvider.getTracer('app').startSpan('app-request');
    context.with(trace.setSpan(context.active(), parent), () => emit({ type: 'operation:start', op }));
    emit(attemptStart(op, 1, url));
    emit({ type: 'attempt:end', client: 'hashscan', op, attempt: 1, method: 'GET', url, status: 500, durationMs: 30 });
    emit({ type: 'retry', client: 'hashscan', op, attempt: 1, delayMs: 100, reason: 'HTTP_500', kind: 'backoff' });
    emit(attemptStart(op, 2, url));
    emit({ type: 'attempt:end', client: 'hashscan', op, attempt: 2, method: 'GET', url, status: 200, durationMs: 20 });
    const result = { verdict: 'malicious', source: 'engine-x', hash: SHA256 };
    emit({ type: 'operation:end', op, result, cache: undefined, attempts: 2, durationMs: 160 });
    parent.end();

    const spans = harness.spans();
    expect(spans.map((span) => span.name)).toEqual(['GET', 'GET', 'HashScanClient.scan', 'app-request']);
    const [first, second, operation] = spans;
    if (first === undefined || second === undefined || operation === undefined) throw new Error('spans missing');
    expect(operation.kind).toBe(SpanKind.INTERNAL);
    expect(operation.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(operation.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(operation.attributes).toMatchObject({
      'hashscan.hash': SHA256,
      'hashscan.hash.algorithm': 'sha256',
      'hashscan.verdict': 'malicious',
      'hashscan.cache': 'none',
      'hashscan.attempts': 2,
      'hashscan.detection_source': 'engine-x',
    });
    expect(operation.status.code).toBe(SpanStatusCode.UNSET);
    expect(operation.events.map((event) => [event.name, event.attributes])).toEqual([
      ['retry', { 'retry.kind': 'backoff', 'retry.attempt': 1, 'retry.delay_ms': 100, 'retry.reason': 'HTTP_500' }],
    ]);
    for (const span of [first, second]) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.parentSpanContext?.spanId).toBe(operation.spanContext().spanId);
      expect(span.attributes['url.full']).toBe(`https://h.example:8443/hash_scan?api_key=REDACTED&hash=${SHA256}`);
      expect(span.attributes).toMatchObject({ 'http.request.method': 'GET', 'server.address': 'h.example' });
    }
    expect(first.attributes['http.request.resend_count']).toBeUndefined();
    expect(first.attributes).toMatchObject({ 'http.response.status_code': 500, 'error.type': '500' });
    expect(first.status.code).toBe(SpanStatusCode.ERROR);
    expect(second.attributes).toMatchObject({ 'http.request.resend_count': 1, 'http.response.status_code': 200 });
    expect(second.attributes['error.type']).toBeUndefined();

    const durations = await harness.points<HistogramPoint['value']>('http.client.request.duration');
    expect(durations.map((point) => [point.attributes, point.value.count, point.value.sum])).toEqual([
      [
        {
          'http.request.method': 'GET',
          'server.address': 'h.example',
          'server.port': 8443,
          'http.response.status_code': 500,
          'error.type': '500',
        },
        1,
        0.03,
      ],
      [
        {
          'http.request.method': 'GET',
          'server.address': 'h.example',
          'server.port': 8443,
          'http.response.status_code': 200,
        },
        1,
        0.02,
      ],
    ]);
    const lookups = await harness.points('hashscan.lookups');
    expect(lookups.map((point) => [point.attributes, point.value])).toEqual([
      [{ 'hashscan.verdict': 'malicious', 'hashscan.cache': 'none' }, 1],
    ]);
  });

  it('marks a failed lookup with its error code and a time-out attempt without a status', async () => {
    const emit = observer();
    const op = scanOp();
    const url = 'https://h.example:8443/hash_scan?api_key=***&hash=x';
    emit({ type: 'operation:start', op });
    emit(attemptStart(op, 1, url));
    emit({
      type: 'attempt:end',
      client: 'hashscan',
      op,
      attempt: 1,
      method: 'GET',
      url,
      errorCode: 'TIMEOUT',
      durationMs: 5,
    });
    emit({
      type: 'operation:end',
      op,
      error: new Error('x'),
      errorCode: 'TIMEOUT',
      cache: undefined,
      attempts: 1,
      durationMs: 6,
    });
    const [attempt, operation] = harness.spans();
    expect(attempt?.attributes['error.type']).toBe('TIMEOUT');
    expect(attempt?.attributes['http.response.status_code']).toBeUndefined();
    expect(operation?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'TIMEOUT' });
    expect(operation?.attributes).toMatchObject({ 'hashscan.verdict': 'error', 'error.type': 'TIMEOUT' });
    const lookups = await harness.points('hashscan.lookups');
    expect(lookups[0]?.attributes).toEqual({
      'hashscan.verdict': 'error',
      'hashscan.cache': 'none',
      'error.type': 'TIMEOUT',
    });
  });

  it('records a cache hit without an attempt span, and breaker and rate-gate events', async () => {
    const emit = observer();
    const op = scanOp();
    emit({ type: 'operation:start', op });
    emit({ type: 'cache', op, level: 'memory', outcome: 'miss' });
    emit({ type: 'cache', op, level: 'shared', outcome: 'hit' });
    emit({ type: 'rate-gate', client: 'hashscan', op, state: 'paused', waitMs: 50 });
    emit({ type: 'rate-gate', client: 'hashscan', op, state: 'resumed' });
    emit({ type: 'breaker:refused', client: 'hashscan', op });
    emit({
      type: 'operation:end',
      op,
      result: { verdict: 'not_detected' },
      cache: 'shared',
      attempts: 0,
      durationMs: 1,
    });
    const spans = harness.spans();
    expect(spans.map((span) => span.name)).toEqual(['HashScanClient.scan']);
    expect(spans[0]?.events.map((event) => [event.name, event.attributes])).toEqual([
      ['cache.miss', { 'hashscan.cache.level': 'memory' }],
      ['cache.hit', { 'hashscan.cache.level': 'shared' }],
      ['rate_gate.paused', { 'rate_gate.wait_ms': 50 }],
      ['rate_gate.resumed', {}],
      ['circuit_breaker.refused', {}],
    ]);
    expect((await harness.points('hashscan.lookups'))[0]?.attributes).toEqual({
      'hashscan.verdict': 'not_detected',
      'hashscan.cache': 'shared',
    });
  });

  it('reports breaker state and retry tokens as gauges read at collection', async () => {
    observer();
    const breaker = await harness.points('hashscan_sms.circuit_breaker.state');
    expect(breaker.map((point) => [point.attributes['circuit_breaker.state'], point.value])).toEqual([
      ['closed', 1],
      ['half-open', 0],
      ['open', 0],
    ]);
    expect(breaker[0]?.attributes).toMatchObject({ 'hashscan_sms.client': 'hashscan', 'server.address': 'h.example' });
    expect((await harness.points('hashscan_sms.retry_budget.tokens'))[0]?.value).toBe(7);
  });

  it('redacts every sensitive query value of an SMS GET and counts the send by outcome', async () => {
    const emit = observer('sms');
    const op = sendOp();
    const url =
      'https://h.example:8443/?AccessKeyId=LTAI***&PhoneNumbers=1380***&Signature=***&SecurityToken=***&TemplateParam=***&Action=SendSms';
    emit({ type: 'operation:start', op });
    emit(attemptStart(op, 1, url));
    emit({
      type: 'attempt:end',
      client: 'sms',
      op,
      attempt: 1,
      method: 'GET',
      url,
      status: 400,
      serviceCode: 'SignatureDoesNotMatch',
      durationMs: 3,
    });
    const error = Object.assign(new Error('refused'), { outcome: 'rejected', requestId: 'req-1' });
    emit({
      type: 'operation:end',
      op,
      error,
      errorCode: 'SignatureDoesNotMatch',
      cache: undefined,
      attempts: 1,
      durationMs: 4,
    });
    const [attempt, operation] = harness.spans();
    expect(attempt?.attributes['url.full']).toBe(
      'https://h.example:8443/?AccessKeyId=REDACTED&PhoneNumbers=REDACTED&Signature=REDACTED&SecurityToken=REDACTED&TemplateParam=REDACTED&Action=SendSms',
    );
    expect(attempt?.attributes['sms.service_code']).toBe('SignatureDoesNotMatch');
    expect(operation?.name).toBe('SmsClient.send');
    expect(operation?.attributes).toMatchObject({
      'sms.phone_count': 2,
      'sms.template_code': 'SMS_1',
      'sms.outcome': 'rejected',
      'sms.billed_messages.estimate': 0,
      'sms.request_id': 'req-1',
      'error.type': 'SignatureDoesNotMatch',
    });
    expect((await harness.points('sms.sends'))[0]).toMatchObject({
      attributes: { 'sms.outcome': 'rejected', 'error.type': 'SignatureDoesNotMatch' },
      value: 1,
    });
  });

  it('keeps nothing for an operation when the tracer does not record', () => {
    harness = otelHarness();
    const made = createTelemetry(
      { meterProvider: harness.meterProvider },
      { client: 'hashscan', baseUrl: () => 'https://h.example', owner },
    );
    const op = scanOp();
    // No global tracer provider: the API's proxy hands out non-recording spans.
    made?.observe({ type: 'operation:start', op });
    made?.observe(attemptStart(op, 1, 'https://h.example/'));
    made?.observe({
      type: 'operation:end',
      op,
      result: { verdict: 'not_detected' },
      cache: undefined,
      attempts: 1,
      durationMs: 1,
    });
    expect(harness.spans()).toEqual([]);
  });

  it('is off with `telemetry: false`', () => {
    expect(createTelemetry(false, { client: 'hashscan', baseUrl: () => 'https://h.example', owner })).toBeUndefined();
  });
});

describe('OpenTelemetry subscriber activity', () => {
  it('is inactive on the global providers until one is registered, then active', async () => {
    const { metrics } = await import('@opentelemetry/api');
    const made = createTelemetry(undefined, { client: 'hashscan', baseUrl: () => 'https://h.example', owner });
    expect(made?.active()).toBe(false);
    harness = otelHarness();
    trace.setGlobalTracerProvider(harness.tracerProvider);
    try {
      expect(made?.active()).toBe(true);
    } finally {
      trace.disable();
    }
    expect(made?.active()).toBe(false);
    metrics.setGlobalMeterProvider(harness.meterProvider);
    try {
      expect(made?.active()).toBe(true);
    } finally {
      metrics.disable();
    }
  });

  it('is always active with providers of its own', () => {
    harness = otelHarness();
    const made = createTelemetry(
      { tracerProvider: harness.tracerProvider },
      { client: 'hashscan', baseUrl: () => 'https://h.example', owner },
    );
    expect(made?.active()).toBe(true);
  });
});
