import { getEventListeners } from 'node:events';
import { delay } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, makeClient, NOT_DETECTED, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';
import { makeClient as makeSmsClient, REQUEST, serveSms } from '../sms/sms-service.js';

const server = useMswServer();
const hex = (n: number): string => n.toString(16).padStart(64, '0');

let warnings: Error[] = [];
const record = (warning: Error): void => {
  warnings.push(warning);
};
beforeEach(() => {
  warnings = [];
  process.on('warning', record);
});
afterEach(() => {
  process.off('warning', record);
});
/** Warnings are emitted on the next tick. */
const settledWarnings = async (): Promise<Error[]> => {
  await new Promise((resolve) => setImmediate(resolve));
  return warnings;
};

describe('one AbortSignal shared by many calls', () => {
  it('50 concurrent scan() calls: one listener on the signal, no MaxListenersExceededWarning, none left after', async () => {
    serveLookup(server, async () => {
      await delay(20);
      return json(NOT_DETECTED);
    });
    const controller = new AbortController();
    const client = makeClient();
    const calls = Array.from({ length: 50 }, (_, i) => client.scan(hex(i), { signal: controller.signal }));
    expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(1);
    const results = await Promise.all(calls);
    expect(results.every((result) => result.verdict === 'not_detected')).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(await settledWarnings()).toEqual([]);
  });

  it('aborting the shared signal still rejects every call ABORTED', async () => {
    const requests = serveLookup(server, async () => {
      await delay('infinite');
      return json(NOT_DETECTED);
    });
    const controller = new AbortController();
    const client = makeClient();
    const calls = Array.from({ length: 20 }, (_, i) =>
      client.scan(hex(i), { signal: controller.signal }).catch((error: unknown) => error),
    );
    await delay(20);
    controller.abort();
    const errors = await Promise.all(calls);
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual(errors.map(() => 'ABORTED'));
    expect(requests.length).toBeLessThanOrEqual(20);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(await settledWarnings()).toEqual([]);
  });

  it('20 concurrent batches and streams sharing a signal: one listener, no warning', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    const controller = new AbortController();
    const client = makeClient();
    const batches = Array.from({ length: 10 }, (_, i) => client.scanMany([hex(i)], { signal: controller.signal }));
    const streams = Array.from({ length: 10 }, async (_, i) => {
      const seen = [];
      for await (const outcome of client.scanIterable([hex(i)], { signal: controller.signal })) seen.push(outcome);
      return seen;
    });
    await delay(0);
    expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(1);
    const results = [...(await Promise.all(batches)), ...(await Promise.all(streams))];
    expect(results.flat().every((outcome) => outcome.verdict === 'not_detected')).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(await settledWarnings()).toEqual([]);
  });

  it('20 concurrent SMS sends sharing a signal print no warning either', async () => {
    const received = serveSms(server);
    const controller = new AbortController();
    const client = makeSmsClient();
    const sends = Array.from({ length: 20 }, () => client.send(REQUEST, { signal: controller.signal }));
    await Promise.all(sends);
    expect(received).toHaveLength(20);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(await settledWarnings()).toEqual([]);
  });
});
