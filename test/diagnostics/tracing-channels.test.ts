import { tracingChannel } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import {
  ChannelPublisher,
  SCAN_CHANNEL,
  type ScanTraceContext,
  SEND_CHANNEL,
  type SendTraceContext,
} from '../../src/diagnostics/tracing-channels.js';
import type { ScanOperation, SendOperation } from '../../src/observe/events.js';
import { captureChannel } from '../helpers/otel.js';

const scanOp: ScanOperation = {
  client: 'hashscan',
  operation: 'scan',
  hash: 'ab'.repeat(16),
  algorithm: 'md5',
  sourceId: 's',
};
const sendOp: SendOperation = {
  client: 'sms',
  operation: 'send',
  phoneCount: 1,
  templateCode: 'SMS_1',
  method: 'POST',
};

describe('tracing channels', () => {
  it('publishes start and end at the start, then asyncStart and asyncEnd with the result, in tracePromise order', () => {
    const { seen, stop } = captureChannel(SCAN_CHANNEL);
    const publisher = new ChannelPublisher('hashscan');
    publisher.observe({ type: 'operation:start', op: scanOp });
    const result = { verdict: 'not_detected' };
    publisher.observe({ type: 'operation:end', op: scanOp, result, cache: 'memory', attempts: 0, durationMs: 1 });
    stop();
    const start = { hash: scanOp.hash, algorithm: 'md5', sourceId: 's' };
    const settled = { ...start, attempts: 0, cache: 'memory', result };
    expect(seen).toEqual([
      ['start', start],
      ['end', start],
      ['asyncStart', settled],
      ['asyncEnd', settled],
    ]);
  });

  it('publishes error before asyncStart on failure, on the send channel', () => {
    const { seen, stop } = captureChannel(SEND_CHANNEL);
    const publisher = new ChannelPublisher('sms');
    publisher.observe({ type: 'operation:start', op: sendOp });
    const error = new Error('refused');
    publisher.observe({
      type: 'operation:end',
      op: sendOp,
      error,
      errorCode: 'X',
      cache: undefined,
      attempts: 2,
      durationMs: 1,
    });
    stop();
    expect(seen.map(([event]) => event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    const published = seen[2]?.[1] as unknown as SendTraceContext;
    expect(published).toMatchObject({ phoneCount: 1, templateCode: 'SMS_1', method: 'POST', attempts: 2 });
    // A copy with the code, never the caller's error with its message.
    expect(published.error).not.toBe(error);
    expect(published.error).toMatchObject({ name: 'Error', code: 'X', outcome: 'unknown', attempts: 2 });
    expect(published.error?.message).not.toContain('refused');
  });

  it('shares one context object across the events of a trace', () => {
    const contexts: object[] = [];
    const channel = tracingChannel<unknown, ScanTraceContext | SendTraceContext>(SCAN_CHANNEL);
    const keep = (message: object) => contexts.push(message);
    const handlers = { start: keep, end: keep, asyncStart: keep, asyncEnd: keep, error: keep };
    channel.subscribe(handlers);
    const publisher = new ChannelPublisher('hashscan');
    publisher.observe({ type: 'operation:start', op: scanOp });
    publisher.observe({ type: 'operation:end', op: scanOp, result: {}, cache: undefined, attempts: 1, durationMs: 1 });
    channel.unsubscribe(handlers);
    expect(new Set(contexts).size).toBe(1);
  });

  it('never passes on the raw result: a result of no known shape shows as nothing, and is no error', () => {
    const { seen, stop } = captureChannel(SCAN_CHANNEL);
    const publisher = new ChannelPublisher('hashscan');
    publisher.observe({ type: 'operation:start', op: scanOp });
    const raw = { verdict: 'odd', raw: { echo: 'anything' } };
    publisher.observe({ type: 'operation:end', op: scanOp, result: raw, cache: undefined, attempts: 1, durationMs: 1 });
    stop();
    expect(seen.map(([event]) => event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(seen[3]?.[1]).not.toHaveProperty('result');
  });

  it('traces nothing without subscribers at the start, even if one subscribes before the end', () => {
    const publisher = new ChannelPublisher('hashscan');
    publisher.observe({ type: 'operation:start', op: scanOp });
    const { seen, stop } = captureChannel(SCAN_CHANNEL);
    publisher.observe({ type: 'operation:end', op: scanOp, result: {}, cache: undefined, attempts: 1, durationMs: 1 });
    stop();
    expect(seen).toEqual([]);
  });
});
