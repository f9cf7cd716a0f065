import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { HashScanError } from '../../../src/errors/hashscan-error.js';
import { HashScanClient, type HashScanClientOptions } from '../../../src/hashscan/hashscan-client.js';
import { SmsClient } from '../../../src/sms/index.js';
import { useBothTransports } from '../../helpers/both-transports.js';
import { NOT_DETECTED, SHA256 } from '../../helpers/hash-lookup.js';
import { closed, type Loopback, startLoopback } from '../../helpers/loopback.js';
import { ACCESS_KEY_ID, ACCESS_KEY_SECRET, REQUEST, rejection } from '../../sms/sms-service.js';

// maxResponseBytes against real sockets, on both transports: a gzip bomb, an
// endless body and a Content-Length that announces too much. Memory is the
// subject here, so growth is measured, with generous bounds (never a timing).

const MiB = 1024 * 1024;

const { transports } = useBothTransports();

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Zeros, `total` bytes of them, in 64 KiB chunks, produced only as fast as they are read. */
function zeros(total: number): Readable {
  const chunk = Buffer.alloc(64 * 1024);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) {
        this.push(null);
        return;
      }
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

/** Writes zeros forever (until the client goes), honouring back-pressure. */
function endless(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  zeros(Number.POSITIVE_INFINITY).pipe(response);
}

/** 1 GiB of zeros gzipped on the fly (about 1 MiB on the wire), sent chunked. */
function gzipBomb(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  zeros(1024 * MiB)
    .pipe(createGzip({ level: 9 }))
    .pipe(response);
}

/** Runs `work`, sampling RSS every few ms; resolves its outcome and the peak growth over the start. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ outcome: T | unknown; growth: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    const outcome = await work().then(
      (value) => value,
      (error: unknown) => error,
    );
    peak = Math.max(peak, process.memoryUsage.rss());
    return { outcome, growth: peak - start };
  } finally {
    clearInterval(sampler);
  }
}

describe.each(transports)('maxResponseBytes over %s', (_name, via) => {
  const client = (baseUrl: string, options: HashScanClientOptions = {}) =>
    new HashScanClient({
      apiKey: 'loop-key',
      baseUrl,
      cache: false,
      timeoutMs: 20_000,
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 },
      ...via(),
      ...options,
    });

  it('an endless body: INVALID_RESPONSE naming the limit, one request, connection cut, memory bounded', async () => {
    let socket: Socket | undefined;
    server = await startLoopback((_request, response, s) => {
      socket = s;
      endless(response);
    });
    const { outcome, growth } = await peakGrowth(() => client(server?.url ?? '').scan(SHA256));
    expect(outcome).toBeInstanceOf(HashScanError);
    expect(outcome).toMatchObject({ code: 'INVALID_RESPONSE', status: 200, attempts: 1 });
    expect((outcome as HashScanError).message).toContain('maxResponseBytes (1048576 bytes)');
    expect(server.hits()).toBe(1);
    if (socket !== undefined && !socket.destroyed) await closed(socket);
    if (process.env.SHOW_GROWTH) console.log(`growth ${(growth / MiB).toFixed(1)} MiB`);
    expect(growth).toBeLessThan(64 * MiB);
  });

  it('a gzip bomb (1 GiB of zeros): INVALID_RESPONSE, one request, memory bounded', async () => {
    server = await startLoopback((_request, response) => gzipBomb(response));
    const { outcome, growth } = await peakGrowth(() =>
      client(server?.url ?? '', { maxResponseBytes: 256 * 1024 }).scan(SHA256),
    );
    expect(outcome).toMatchObject({ code: 'INVALID_RESPONSE', attempts: 1 });
    expect((outcome as HashScanError).message).toContain('maxResponseBytes (262144 bytes)');
    expect(server.hits()).toBe(1);
    if (process.env.SHOW_GROWTH) console.log(`growth ${(growth / MiB).toFixed(1)} MiB`);
    expect(growth).toBeLessThan(64 * MiB);
  });

  it('a Content-Length over the limit is refused before any of the body is read', async () => {
    let socket: Socket | undefined;
    server = await startLoopback((_request, response, s) => {
      socket = s;
      // Announces 10 MiB, then stalls: only refusing on the header ends this before the time-out.
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * MiB) });
      response.flushHeaders();
    });
    const error = await client(server.url, { timeoutMs: 120_000 })
      .scan(SHA256)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', status: 200, attempts: 1 });
    expect((error as HashScanError).message).toBe(
      'the response announces 10485760 bytes, over maxResponseBytes (1048576 bytes)',
    );
    expect(server.hits()).toBe(1);
    if (socket !== undefined && !socket.destroyed) await closed(socket);
  });

  it.each([
    ['announced', true],
    ['chunked', false],
  ])('a %s body of exactly maxResponseBytes is read; one byte more is not', async (_kind, announce) => {
    const body = JSON.stringify(NOT_DETECTED);
    const limit = body.length + 10;
    server = await startLoopback((request, response) => {
      const text = body + ' '.repeat(request.url?.includes('hash=') && server?.hits() === 1 ? 10 : 11);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (announce) headers['content-length'] = String(Buffer.byteLength(text));
      response.writeHead(200, headers);
      response.end(text);
    });
    await expect(client(server.url, { maxResponseBytes: limit }).scan(SHA256)).resolves.toMatchObject({
      verdict: 'not_detected',
    });
    await expect(client(server.url, { maxResponseBytes: limit }).scan(SHA256)).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
    });
    expect(server.hits()).toBe(2);
  });

  it('an SMS answer past the limit: INVALID_RESPONSE, outcome unknown, sent once even with retryUnknownOutcome', async () => {
    server = await startLoopback((_request, response) => endless(response));
    const sms = new SmsClient({
      accessKeyId: ACCESS_KEY_ID,
      accessKeySecret: ACCESS_KEY_SECRET,
      baseUrl: server.url,
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 },
      retryUnknownOutcome: true,
      maxResponseBytes: 64 * 1024,
      ...via(),
    });
    const error = await rejection(sms.send(REQUEST));
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', outcome: 'unknown', status: 200, attempts: 1 });
    expect(error.message).toContain('maxResponseBytes (65536 bytes)');
    expect(server.hits()).toBe(1);
  });
});

describe('maxResponseBytes option', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1024'])('%s is a configuration error', (value) => {
    expect(
      () =>
        new HashScanClient({
          apiKey: 'k',
          baseUrl: 'https://h.test',
          maxResponseBytes: value as number,
        }),
    ).toThrow(ConfigurationError);
  });
});
