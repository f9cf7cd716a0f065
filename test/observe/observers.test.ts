import { describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNTS } from '../../src/doubles/defaults.js';
import type { HashScanClientOptions } from '../../src/hashscan/hashscan-client.js';
import type { Observer, ObserverEvent } from '../../src/observe/events.js';
import { INTERNAL_OBSERVERS, NO_OBSERVERS, Observers } from '../../src/observe/observers.js';
import { SmsClient, type SmsClientOptions } from '../../src/sms/index.js';
import { createSmsHandlers } from '../../src/testing/msw-handlers.js';
import { API_KEY, json, makeClient, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();
const SEND = { phoneNumbers: '13800000000', templateCode: 'SMS_100000001', templateParam: { code: '1' } };

function recorder(types?: Observer['types']): { observer: Observer; events: ObserverEvent[] } {
  const events: ObserverEvent[] = [];
  return { events, observer: { observe: (event) => events.push(event), ...(types === undefined ? {} : { types }) } };
}

const withObservers = <T extends object>(options: T, ...observers: Observer[]): T =>
  ({ ...options, [INTERNAL_OBSERVERS]: observers }) as T;

describe('Observers (the hub)', () => {
  it('is inactive without subscribers and listens only for the types its subscribers read', () => {
    expect(NO_OBSERVERS.active).toBe(false);
    expect(NO_OBSERVERS.listens('attempt:end')).toBe(false);
    const some = new Observers([recorder(['retry']).observer]);
    expect(some.active).toBe(true);
    expect(some.listens('retry')).toBe(true);
    expect(some.listens('attempt:start')).toBe(false);
    expect(new Observers([recorder().observer]).listens('attempt:start')).toBe(true);
  });

  it('hands each event only to the subscribers of its type, and a throwing subscriber harms nobody', () => {
    const all = recorder();
    const retries = recorder(['retry']);
    const thrower: Observer = {
      observe: () => {
        throw new Error('subscriber bug');
      },
    };
    const hub = new Observers([thrower, all.observer, retries.observer]);
    hub.emit({ type: 'store', state: 'resumed' });
    expect(all.events).toEqual([{ type: 'store', state: 'resumed' }]);
    expect(retries.events).toEqual([]);
  });
});

describe('events of a lookup', () => {
  it('reports operation, cache level, call, attempts and the retry, URLs redacted', async () => {
    serveLookup(server, (_hash, call) => (call === 1 ? json({}, 503) : json(NOT_DETECTED)));
    const { observer, events } = recorder();
    const options: HashScanClientOptions = { cache: {}, retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 } };
    const client = makeClient(withObservers(options, observer));
    await client.scan(SHA256);
    expect(events.map((event) => event.type)).toEqual([
      'operation:start',
      'cache',
      'call:start',
      'attempt:start',
      'attempt:end',
      'retry',
      'attempt:start',
      'attempt:end',
      'call:end',
      'operation:end',
    ]);
    expect(events[1]).toMatchObject({ level: 'memory', outcome: 'miss' });
    expect(events[3]).toMatchObject({ attempt: 1, method: 'GET', serverAddress: 'hashscan.test', serverPort: 443 });
    expect(events[4]).toMatchObject({ attempt: 1, status: 503 });
    expect(events[5]).toMatchObject({ kind: 'backoff', attempt: 1, reason: 'HTTP_STATUS' });
    expect(events[7]).toMatchObject({ attempt: 2, status: 200 });
    expect(events[9]).toMatchObject({ attempts: 2, cache: undefined, result: { verdict: 'not_detected' } });
    expect(JSON.stringify(events)).not.toContain(API_KEY);
    // Every event of the lookup carries the same operation object.
    const op = (events[0] as { op: unknown }).op;
    expect(events.filter((event) => 'op' in event).every((event) => (event as { op: unknown }).op === op)).toBe(true);

    events.length = 0;
    await client.scan(SHA256);
    expect(events.map((event) => event.type)).toEqual(['operation:start', 'cache', 'operation:end']);
    expect(events[2]).toMatchObject({ cache: 'memory', attempts: 0 });
  });

  it('reports a lookup that joins one already in flight, with no attempt of its own', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    const { observer, events } = recorder(['in-flight:joined', 'operation:end']);
    const client = makeClient(withObservers({}, observer));
    await Promise.all([client.scan(SHA256), client.scan(SHA256)]);
    expect(events.map((event) => event.type)).toEqual(['in-flight:joined', 'operation:end', 'operation:end']);
    expect(events.slice(1).map((event) => (event as { attempts: number }).attempts)).toEqual([1, 0]);
  });
});

describe('events of a send', () => {
  it('runs the re-signed round in the same loop: one attempt counter, a retry event of kind resign', async () => {
    server.use(...createSmsHandlers({ baseUrl: 'https://sms.test', clockOffsetMs: 3_600_000 }));
    const { observer, events } = recorder(['attempt:end', 'retry', 'clock', 'operation:end', 'call:start']);
    const options: SmsClientOptions = { baseUrl: 'https://sms.test', ...SANDBOX_ACCOUNTS.member, retry: false };
    const sms = new SmsClient(withObservers(options, observer));
    await expect(sms.send(SEND)).resolves.toMatchObject({ code: 'OK' });
    expect(events.map((event) => event.type)).toEqual([
      'call:start',
      'attempt:end',
      'clock',
      'retry',
      'attempt:end',
      'operation:end',
    ]);
    expect(events[1]).toMatchObject({ attempt: 1, status: 400, serviceCode: 'InvalidTimeStamp.Expired' });
    expect(events[3]).toMatchObject({ kind: 'resign', delayMs: 0, attempt: 1, reason: 'InvalidTimeStamp.Expired' });
    expect(events[4]).toMatchObject({ attempt: 2, status: 200 });
    expect(events[5]).toMatchObject({ attempts: 2, op: { client: 'sms', operation: 'send', phoneCount: 1 } });
    expect(JSON.stringify(events)).not.toContain(SANDBOX_ACCOUNTS.member.accessKeySecret);
  });
});
