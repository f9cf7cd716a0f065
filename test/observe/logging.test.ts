import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { API_KEY, BASE_URL, json, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();

describe('logging', () => {
  it('logs each attempt with the masked URL, status or code, duration and attempt number', async () => {
    serveLookup(server, (_hash, call) =>
      call === 1 ? HttpResponse.error() : call === 2 ? json({}, 503) : json(NOT_DETECTED),
    );
    const entries: { level: string; message: string; details: Record<string, unknown> | undefined }[] = [];
    const record =
      (level: string) =>
      (message: string, details?: Record<string, unknown>): void => {
        entries.push({ level, message, details });
      };
    const client = new HashScanClient({
      apiKey: API_KEY,
      baseUrl: BASE_URL,
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 },
      logger: {
        structured: true,
        debug: record('debug'),
        info: record('info'),
        warn: record('warn'),
        error: record('error'),
      },
    });
    await client.scan(SHA256);

    const attempts = entries.filter((e) => e.details?.attempt !== undefined && e.details.url !== undefined);
    expect(attempts.map((e) => [e.level, e.details?.attempt, e.details?.status ?? e.details?.code])).toEqual([
      ['warn', 1, 'NETWORK'],
      ['warn', 2, 503],
      ['debug', 3, 200],
    ]);
    for (const entry of attempts) {
      expect(entry.details?.url).toBe(`${BASE_URL}/hash_scan?api_key=***&hash=${SHA256}`);
      expect(typeof entry.details?.durationMs).toBe('number');
      expect(entry.message).toContain('api_key=***');
    }
    expect(entries.filter((e) => e.level === 'info').map((e) => e.details?.attempt)).toEqual([1, 2]);
    expect(JSON.stringify(entries)).not.toContain(API_KEY);
  });

  it('is silent by default: no console call and no output, even on a failed attempt', async () => {
    serveLookup(server, (_hash, call) => (call === 1 ? json({}, 503) : json(NOT_DETECTED)));
    const spies = [
      ...(['debug', 'info', 'log', 'warn', 'error'] as const).map((level) => vi.spyOn(console, level)),
      vi.spyOn(process.stdout, 'write'),
      vi.spyOn(process.stderr, 'write'),
    ];
    try {
      const client = new HashScanClient({
        apiKey: API_KEY,
        baseUrl: BASE_URL,
        retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 },
      });
      const result = await client.scan(SHA256);
      expect(result.verdict).toBe('not_detected');
      expect(spies.map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('rejects a logger without the four methods', () => {
    expect(() => new HashScanClient({ apiKey: API_KEY, baseUrl: BASE_URL, logger: { debug() {} } as never })).toThrow(
      /logger/,
    );
  });
});
