import { inspect } from 'node:util';
import { HttpResponse, http, passthrough } from 'msw';
import { describe, expect, it } from 'vitest';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import type { Logger } from '../../src/observe/logger.js';
import { BASE_URL, json, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { startLoopback } from '../helpers/loopback.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();

const SENTINEL = 'SENTINEL-key/with+special&chars=42';
const forms = [SENTINEL, encodeURIComponent(SENTINEL), new URLSearchParams({ k: SENTINEL }).toString().slice(2)];

function captureLogger(lines: string[]): Logger {
  const log = (message: string, details?: Record<string, unknown>) => lines.push(message, JSON.stringify(details));
  return { structured: true, debug: log, info: log, warn: log, error: log };
}

function expectNoSecret(text: string): void {
  for (const form of forms) expect(text).not.toContain(form);
}

describe('the API key never leaks', () => {
  it.each([
    ['HTTP 500 (retried)', () => json({}, 500)],
    ['a network error (retried)', () => HttpResponse.error()],
    ['invalid JSON', () => new HttpResponse(`bad ${SENTINEL}`)],
    ['an abnormal body echoing the key', () => json({ ...NOT_DETECTED, api_key: SENTINEL })],
    ['status not success', () => json({ status: `denied for ${SENTINEL}` })],
  ])('not in logs, message, stack, JSON or inspect output: %s', async (_name, respond) => {
    const requests = serveLookup(server, () => respond());
    const lines: string[] = [];
    const client = new HashScanClient({
      apiKey: SENTINEL,
      baseUrl: BASE_URL,
      logger: captureLogger(lines),
      retry: { retries: 1, minDelayMs: 1, maxDelayMs: 1 },
      cache: false,
    });
    const error = await client.scan(SHA256).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    // The key really was sent (so the test can fail), just never shown.
    expect(requests[0]?.apiKey).toBe(SENTINEL);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).toContain('api_key=***');
    const err = error as Error;
    expectNoSecret(lines.join('\n'));
    expectNoSecret(err.message);
    expectNoSecret(String(err.stack));
    expectNoSecret(JSON.stringify(err));
    expectNoSecret(inspect(err, { depth: 10, showHidden: true }));
    expectNoSecret(inspect(client, { depth: 10, showHidden: true }));
    expectNoSecret(JSON.stringify(client));
  });

  it('not in a time-out error from a real server', async () => {
    const loopback = await startLoopback(() => {});
    server.use(http.all(`${loopback.url}/*`, () => passthrough()));
    try {
      const lines: string[] = [];
      const error = await new HashScanClient({
        apiKey: SENTINEL,
        baseUrl: loopback.url,
        timeoutMs: 30,
        retry: false,
        logger: captureLogger(lines),
      })
        .scan(SHA256)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'TIMEOUT' });
      expectNoSecret(lines.join('\n') + inspect(error, { depth: 10, showHidden: true }) + JSON.stringify(error));
    } finally {
      await loopback.close();
    }
  });

  it('not in configuration errors', () => {
    let error: unknown;
    try {
      new HashScanClient({ apiKey: SENTINEL, baseUrl: `http://example.com/?k=${SENTINEL}` });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'CONFIGURATION', option: 'baseUrl' });
    expectNoSecret(inspect(error, { depth: 10 }) + JSON.stringify(error));
  });
});
