import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Observer, ObserverEvent } from '../../../src/observe/events.js';
import { INTERNAL_OBSERVERS } from '../../../src/observe/observers.js';
import { json, MD5, makeClient, NOT_DETECTED, SHA1, SHA256, serveLookup } from '../../helpers/hash-lookup.js';
import { useMswServer } from '../../helpers/msw.js';

const server = useMswServer();
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('breaker transitions on the observer seam', () => {
  it('each transition is one event (key, reason, open time) and one log line; stats show it', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    vi.spyOn(Math, 'random').mockReturnValue(0); // no jitter on the open time
    let up = false;
    serveLookup(server, () => (up ? json(NOT_DETECTED) : json({}, 503)));
    const events: ObserverEvent[] = [];
    const observer: Observer = { types: ['breaker', 'breaker:refused'], observe: (event) => events.push(event) };
    const lines: { level: string; message: string; fields: unknown }[] = [];
    const line = (level: string) => (message: string, fields?: unknown) => lines.push({ level, message, fields });
    const client = makeClient({
      retry: false,
      cache: false,
      circuitBreaker: { failureThreshold: 2, cooldownMs: 1_000, halfOpenProbes: 1 },
      logger: { structured: true, debug: () => {}, info: line('info'), warn: line('warn'), error: line('error') },
      [INTERNAL_OBSERVERS]: [observer],
    } as never);
    for (const hash of [SHA256, SHA1]) await expect(client.scan(hash)).rejects.toMatchObject({ status: 503 });
    await expect(client.scan(MD5)).rejects.toMatchObject({ code: 'CIRCUIT_OPEN' });
    await expect(client.scan(MD5)).rejects.toMatchObject({ code: 'CIRCUIT_OPEN' });
    vi.advanceTimersByTime(1_000);
    up = true;
    await expect(client.scan(MD5)).resolves.toMatchObject({ verdict: 'not_detected' });

    const key = `scan ${new URL(client.baseUrl).host}`;
    expect(events.map((event) => (event.type === 'breaker' ? `${event.state}` : event.type))).toEqual([
      'open',
      'breaker:refused',
      'breaker:refused',
      'half-open',
      'closed',
    ]);
    expect(events[0]).toMatchObject({ type: 'breaker', client: 'hashscan', key, openMs: 1_000 });
    expect(events[0]).toMatchObject({ reason: '2 calls failed, none succeeded since they started' });
    const breakerLines = lines.filter((entry) => entry.message.includes('circuit'));
    expect(breakerLines.map((entry) => entry.level)).toEqual(['warn', 'info', 'info']);
    expect(breakerLines[0]?.message).toBe(
      `hashscan: circuit for ${key} opened (2 calls failed, none succeeded since they started); calls refused with CIRCUIT_OPEN for 1000 ms`,
    );
    expect(breakerLines[0]?.fields).toMatchObject({ circuit: key, state: 'open', openMs: 1_000 });
    expect(client.stats()).toMatchObject({ circuit: 'closed', circuits: { [key]: 'closed' }, circuitOpened: 1 });
    expect(client.stats().rejectedByCircuit).toBe(2);
  });
});
