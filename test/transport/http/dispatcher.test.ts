import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { HashScanError } from '../../../src/errors/hashscan-error.js';
import { HashScanClient, type HashScanClientOptions } from '../../../src/hashscan/hashscan-client.js';
import type { Logger } from '../../../src/observe/logger.js';
import { SmsClient, type SmsClientOptions } from '../../../src/sms/index.js';
import { useBothTransports } from '../../helpers/both-transports.js';
import { HIT, NOT_DETECTED, SHA256 } from '../../helpers/hash-lookup.js';
import { closed, closedPort, type Loopback, readBody, startLoopback } from '../../helpers/loopback.js';
import {
  ACCESS_KEY_ID,
  ACCESS_KEY_SECRET,
  parseWire,
  REQUEST,
  rejection,
  signedWithTestKey,
} from '../../sms/sms-service.js';

// The opt-in `dispatcher` transport must behave exactly like the default `fetch` one:
// every scenario below runs against real loopback sockets through both.

const { transports, agent } = useBothTransports();

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const caught = (promise: Promise<unknown>): Promise<HashScanError> =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(HashScanError);
      return error as HashScanError;
    },
  );

describe.each(transports)('HashScanClient over %s', (_name, via) => {
  const client = (baseUrl: string, options: HashScanClientOptions = {}) =>
    new HashScanClient({
      apiKey: 'loop key/+',
      baseUrl,
      cache: false,
      retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 },
      ...via(),
      ...options,
    });

  it('sends GET {base path}/hash_scan with the encoded key, User-Agent and Accept, and reads not_detected', async () => {
    let seen: IncomingMessage | undefined;
    server = await startLoopback((request, response) => {
      seen = request;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(NOT_DETECTED));
    });
    const result = await client(`${server.url}/v1`).scan(SHA256.toUpperCase());
    expect(result).toMatchObject({ verdict: 'not_detected', hash: SHA256, message: NOT_DETECTED.message });
    expect(Object.isFrozen(result.raw)).toBe(true);
    expect(seen?.method).toBe('GET');
    expect(seen?.url).toBe(`/v1/hash_scan?api_key=loop%20key%2F%2B&hash=${SHA256}`);
    expect(seen?.headers['user-agent']).toMatch(/^hashscan-sms\/\d+\.\d+\.\d+ node\//);
    expect(seen?.headers.accept).toBe('application/json');
  });

  it('reads a hit', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(HIT));
    });
    await expect(client(server.url).scan(SHA256)).resolves.toMatchObject({ verdict: 'malicious', anomalies: [] });
  });

  it('retries a 503 and takes the second answer; a 404 is HTTP_STATUS at once, with the body excerpt', async () => {
    server = await startLoopback((_request, response) => {
      if (server?.hits() === 1) response.writeHead(503).end('busy');
      else if (server?.hits() === 2) response.writeHead(200).end(JSON.stringify(NOT_DETECTED));
      else response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    });
    await expect(client(server.url).scan(SHA256)).resolves.toMatchObject({ verdict: 'not_detected' });
    const error = await caught(client(server.url).scan(SHA256));
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 404, attempts: 1, body: '{"error":"not found"}' });
    expect(server.hits()).toBe(3);
  });

  it('reads Retry-After from the response headers', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(429, { 'retry-after': '120' }).end();
    });
    const error = await caught(client(server.url).scan(SHA256));
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 429, retryAfterMs: 120_000, attempts: 1 });
  });

  it('never follows a redirect', async () => {
    let followed = false;
    server = await startLoopback((request, response) => {
      if (request.url?.startsWith('/elsewhere') === true) followed = true;
      response.writeHead(302, { location: '/elsewhere' }).end();
    });
    const error = await caught(client(server.url, { retry: false }).scan(SHA256));
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 302 });
    expect(followed).toBe(false);
  });

  it('a connection reset is a NETWORK error, retried once, with the cause chain fetch gives', async () => {
    server = await startLoopback((_request, _response, socket) => socket.destroy());
    const error = await caught(client(server.url).scan(SHA256));
    expect(error).toMatchObject({ code: 'NETWORK', attempts: 2 });
    expect(error.message).toContain('UND_ERR_SOCKET');
    expect(error.cause).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    expect(server.hits()).toBe(2);
  });

  it('a refused connection is a NETWORK error naming ECONNREFUSED', async () => {
    const port = await closedPort();
    const error = await caught(client(`http://127.0.0.1:${port}`).scan(SHA256));
    expect(error).toMatchObject({ code: 'NETWORK', attempts: 2 });
    expect(error.message).toContain('ECONNREFUSED');
    expect((error.cause as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('a stalled server is a TIMEOUT after timeoutMs, retried once, and each connection is cut', async () => {
    const closings: Promise<void>[] = [];
    server = await startLoopback((_request, _response, socket) => {
      closings.push(closed(socket));
    });
    // 1500 ms, not less: the second attempt's request must reach the server before its time-out.
    const error = await caught(client(server.url, { timeoutMs: 1500 }).scan(SHA256));
    expect(error).toMatchObject({ code: 'TIMEOUT', attempts: 2 });
    expect(error.message).toContain('1500 ms');
    expect(server.hits()).toBe(2);
    await Promise.all(closings);
  });

  it('a body that stalls after the headers is a TIMEOUT too, and the connection is cut', async () => {
    let closing: Promise<void> | undefined;
    server = await startLoopback((_request, response, socket) => {
      closing = closed(socket);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"status":"success",');
    });
    const error = await caught(client(server.url, { timeoutMs: 50, retry: false }).scan(SHA256));
    expect(error).toMatchObject({ code: 'TIMEOUT', attempts: 1 });
    await closing;
  });

  it('a body cut mid-way is a NETWORK error, never not_detected', async () => {
    server = await startLoopback((_request, response, socket) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      response.write(JSON.stringify(NOT_DETECTED).slice(0, 30), () => socket.destroy());
    });
    const error = await caught(client(server.url).scan(SHA256));
    expect(error).toMatchObject({ code: 'NETWORK', attempts: 2 });
    expect(error.cause).toMatchObject({ name: 'TypeError', message: 'terminated' });
  });

  it("the caller's abort ends the lookup at once, is not retried, and cuts the connection", async () => {
    let closing: Promise<void> | undefined;
    let arrived: () => void = () => {};
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    server = await startLoopback((_request, _response, socket) => {
      closing = closed(socket);
      arrived();
    });
    const controller = new AbortController();
    const pending = caught(client(server.url).scan(SHA256, { signal: controller.signal }));
    await arrival;
    controller.abort();
    await expect(pending).resolves.toMatchObject({ code: 'ABORTED', attempts: 1 });
    await closing;
    expect(server.hits()).toBe(1);
  });

  it('logs each attempt the same way, with the key masked', async () => {
    const lines: string[] = [];
    const line = (message: string) => {
      lines.push(message);
    };
    const logger: Logger = { debug: line, info: line, warn: line, error: line };
    server = await startLoopback((_request, response) => {
      if (server?.hits() === 1) response.writeHead(500).end();
      else response.writeHead(200).end(JSON.stringify(NOT_DETECTED));
    });
    await client(server.url, { logger }).scan(SHA256);
    const shape = lines.map((text) => text.replace(/\d+ ms/g, 'N ms'));
    expect(shape).toEqual([
      `hashscan: GET ${server.url}/hash_scan?api_key=***&hash=${SHA256} -> 500 in N ms (attempt 1)`,
      'hashscan: retrying in N ms',
      `hashscan: GET ${server.url}/hash_scan?api_key=***&hash=${SHA256} -> 200 in N ms (attempt 2)`,
    ]);
  });

  it('a batch dedupes and answers every input', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(200).end(JSON.stringify(NOT_DETECTED));
    });
    const outcomes = await client(server.url).scanMany([SHA256, SHA256.toUpperCase(), 'nope'], { concurrency: 4 });
    expect(outcomes.map((outcome) => outcome.verdict)).toEqual(['not_detected', 'not_detected', 'error']);
    expect(server.hits()).toBe(1);
  });
});

describe.each(transports)('SmsClient over %s', (_name, via) => {
  const sms = (baseUrl: string, options: SmsClientOptions = {}) =>
    new SmsClient({
      accessKeyId: ACCESS_KEY_ID,
      accessKeySecret: ACCESS_KEY_SECRET,
      baseUrl,
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 },
      ...via(),
      ...options,
    });

  it.each(['POST', 'GET'] as const)('sends a correctly signed %s and reads the answer', async (method) => {
    let wire = '';
    let contentType: string | undefined;
    server = await startLoopback(async (request, response) => {
      contentType = request.headers['content-type'];
      wire = request.method === 'POST' ? await readBody(request) : (request.url?.split('?')[1] ?? '');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ Code: 'OK', Message: 'OK', RequestId: 'loop-1', BizId: 'biz-1' }));
    });
    const result = await sms(server.url).send(REQUEST, { method });
    expect(result).toMatchObject({ code: 'OK', requestId: 'loop-1', attempts: 1 });
    expect(signedWithTestKey(method, parseWire(wire))).toBe(true);
    if (method === 'POST') expect(contentType).toBe('application/x-www-form-urlencoded');
  });

  it('a refused connection is re-sent, re-signed, and reported as never sent', async () => {
    const port = await closedPort();
    const error = await rejection(sms(`http://127.0.0.1:${port}`).send(REQUEST));
    expect(error).toMatchObject({ code: 'NETWORK', outcome: 'not_sent', attempts: 3 });
    expect((error.cause as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('a reset after the request was read is OUTCOME_UNKNOWN and not re-sent', async () => {
    server = await startLoopback(async (request, _response, socket) => {
      await readBody(request);
      socket.destroy();
    });
    const error = await rejection(sms(server.url).send(REQUEST));
    expect(error).toMatchObject({ code: 'OUTCOME_UNKNOWN', outcome: 'unknown', attempts: 1 });
    expect(server.hits()).toBe(1);
  });

  it('a server that never answers: one request, OUTCOME_UNKNOWN after timeoutMs', async () => {
    server = await startLoopback(() => {
      // reads nothing, answers nothing
    });
    const error = await rejection(sms(server.url, { timeoutMs: 1500 }).send(REQUEST, { method: 'GET' }));
    expect(error).toMatchObject({ code: 'OUTCOME_UNKNOWN', outcome: 'unknown', attempts: 1 });
    expect(server.hits()).toBe(1);
  });
});

describe('the dispatcher option', () => {
  it('must be a dispatcher and cannot be combined with fetch', () => {
    const base = { apiKey: 'k', baseUrl: 'https://hashscan.test' };
    expect(() => new HashScanClient({ ...base, dispatcher: {} as never })).toThrow(ConfigurationError);
    expect(() => new HashScanClient({ ...base, dispatcher: agent(), fetch: globalThis.fetch })).toThrow(
      /dispatcher.*cannot be combined with `fetch`/,
    );
    expect(() => new HashScanClient({ ...base, dispatcher: agent() })).not.toThrow();
  });
});
