import { afterEach, describe, expect, it } from 'vitest';
import { HashScanClient } from '../../../src/hashscan/hashscan-client.js';
import { SmsClient } from '../../../src/sms/sms-client.js';
import type { UndiciDispatcher } from '../../../src/transport/http/dispatcher.js';
import { NOT_DETECTED } from '../../helpers/hash-lookup.js';
import { closedPort, type Loopback, startLoopback } from '../../helpers/loopback.js';

// The dispatcher path sends through `dispatch()` with a handler of its own,
// which must work with every handler interface: undici 6 calls only the
// legacy one (onConnect/onHeaders/onData/onComplete/onError), undici 8 only
// the newer one (onRequestStart/onResponseStart/…), undici 7 either.

interface Closable extends UndiciDispatcher {
  close(): Promise<void>;
}
type AgentMaker = (options?: { connections?: number; pipelining?: number }) => Promise<Closable>;

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
// undici 8 needs Node 22.19 or later.
const undici8Runs = major > 22 || (major === 22 && minor >= 19);

const versions: [string, AgentMaker, boolean][] = [
  ['undici 6', async (options) => new (await import('undici6')).Agent(options) as unknown as Closable, true],
  ['undici 7', async (options) => new (await import('undici')).Agent(options) as unknown as Closable, true],
  // A string specifier: the package is not loaded (nor type-checked against) where it cannot run.
  ['undici 8', async (options) => new (await import('undici8' as string)).Agent(options) as Closable, undici8Runs],
];

const HASH = 'a'.repeat(64);
let server: Loopback | undefined;
let agent: Closable | undefined;
afterEach(async () => {
  await agent?.close();
  await server?.close();
  agent = undefined;
  server = undefined;
});

describe.each(versions)('the dispatcher path over %s', (_name, makeAgent, runs) => {
  const client = async (options: ConstructorParameters<typeof HashScanClient>[0] = {}, agentOptions = {}) => {
    agent = await makeAgent(agentOptions);
    return new HashScanClient({
      apiKey: 'key',
      baseUrl: server?.url ?? '',
      cache: false,
      dispatcher: agent,
      ...options,
    });
  };
  /** One send over this undici version, two retries allowed for what was surely not sent. */
  const sendSms = async (baseUrl: string) => {
    agent = await makeAgent();
    const sms = new SmsClient({
      accessKeyId: 'testKeyId0123',
      accessKeySecret: 'testSecret4567',
      baseUrl,
      dispatcher: agent,
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 },
    });
    return sms.send({ phoneNumbers: '13800000000', templateCode: 'SMS_1', templateParam: {} });
  };

  it.runIf(runs)('sends the headers and reads a body that comes in several chunks', async () => {
    const seen: string[] = [];
    server = await startLoopback((request, response) => {
      seen.push(`${request.headers['user-agent']}|${request.headers.accept}`);
      const body = JSON.stringify(NOT_DETECTED);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(body.slice(0, 10));
      setTimeout(() => response.write(body.slice(10, 30)), 5);
      setTimeout(() => response.end(body.slice(30)), 10);
    });
    await expect((await client()).scan(HASH)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^hashscan-sms\/\S+ .*\|application\/json$/);
  });

  it.runIf(runs)('reads the response headers (Retry-After of a 429)', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(429, { 'retry-after': '7', 'x-repeated': ['a', 'b'] });
      response.end('{}');
    });
    const error = await (await client({ retry: false })).scan(HASH).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 429, retryAfterMs: 7000 });
  });

  it.runIf(runs)('a body past maxResponseBytes: INVALID_RESPONSE naming the limit, one request', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('x'.repeat(4096));
      response.write('x'.repeat(4096));
    });
    const error = await (await client({ maxResponseBytes: 5000 })).scan(HASH).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE' });
    expect((error as Error).message).toContain('5000');
    expect(server.hits()).toBe(1);
  });

  it.runIf(runs)('an abort while the request waits for a connection: rejected at once, never written', async () => {
    const held: (() => void)[] = [];
    server = await startLoopback((_request, response) => {
      // The first request holds the only connection until released.
      held.push(() => response.end(JSON.stringify(NOT_DETECTED)));
    });
    const scanner = await client({ retry: false }, { connections: 1, pipelining: 1 });
    const first = scanner.scan(HASH);
    await expect.poll(() => server?.hits()).toBe(1);
    const controller = new AbortController();
    const second = scanner.scan('b'.repeat(64), { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    await expect(second).resolves.toMatchObject({ code: 'ABORTED' });
    held[0]?.();
    await expect(first).resolves.toMatchObject({ verdict: 'not_detected' });
    // Give a queued request the time to go out if it were going to.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.hits()).toBe(1);
  });

  it.runIf(runs)('SMS: a connection cut after the request was read is unknown and sent once', async () => {
    server = await startLoopback((request) => {
      request.resume();
      request.on('end', () => request.socket.destroy());
    });
    const error = await sendSms(server.url).catch((e: unknown) => e);
    expect(error).toMatchObject({ outcome: 'unknown', attempts: 1 });
    expect(server.hits()).toBe(1);
  });

  it.runIf(runs)('SMS: a refused connection is not sent, so it is tried again', async () => {
    const error = await sendSms(`http://127.0.0.1:${await closedPort()}`).catch((e: unknown) => e);
    expect(error).toMatchObject({ outcome: 'not_sent', attempts: 3 });
  });
});

describe('a dispatcher that breaks the handler protocol', () => {
  it('a response ended before any status: a network error, not a hang', async () => {
    const dispatcher: UndiciDispatcher = {
      request: () => Promise.reject(new Error('request() must not be used when dispatch() exists')),
      dispatch: (_options, handler) => {
        const legacy = handler as { onConnect(abort: () => void): void; onComplete(trailers: unknown[]): void };
        legacy.onConnect(() => undefined);
        legacy.onComplete([]);
        return true;
      },
    };
    const client = new HashScanClient({
      apiKey: 'key',
      baseUrl: 'https://hashscan.test',
      cache: false,
      dispatcher,
      retry: false,
    });
    const error = await client.scan(HASH).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK' });
  });
});
