/**
 * `scan` honours per-call options (`ScanOptions`); `scanOutcome`, `scanFile`,
 * `scanMany` and `scanIterable` must honour every one of them the same way
 * (issue 28, finding 7: `scanOutcome(h, { totalTimeoutMs })` dropped the
 * budget). A type test per method, and a runtime test per option and method.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import type { ScanOptions } from '../../src/hashscan/scan-options.js';
import type { ScanOutcome } from '../../src/hashscan/scan-result.js';
import { type Loopback, startLoopback } from '../helpers/loopback.js';
import { useTempDir } from '../helpers/temp-dir.js';

const HASH = 'a'.repeat(64);
const SLOW_MS = 3_000;
const dir = useTempDir();

/** Options of each method that looks up, as a caller passes them. */
type OptionsOf<M extends 'scanOutcome' | 'scanFile' | 'scanMany' | 'scanIterable'> = NonNullable<
  Parameters<HashScanClient[M]>[1]
>;

describe('every per-call option of scan, in every method that looks up', () => {
  it('types: each method accepts every option of ScanOptions, with the same type', () => {
    expectTypeOf<Pick<OptionsOf<'scanOutcome'>, keyof ScanOptions>>().toEqualTypeOf<ScanOptions>();
    expectTypeOf<Pick<OptionsOf<'scanFile'>, keyof ScanOptions>>().toEqualTypeOf<ScanOptions>();
    expectTypeOf<Pick<OptionsOf<'scanMany'>, keyof ScanOptions>>().toEqualTypeOf<ScanOptions>();
    expectTypeOf<Pick<OptionsOf<'scanIterable'>, keyof ScanOptions>>().toEqualTypeOf<ScanOptions>();
  });

  let service: Loopback;
  let client: HashScanClient;
  beforeAll(async () => {
    // Answers "not detected", but only after SLOW_MS: a budget shorter than that must end the lookup first.
    service = await startLoopback((_request, response) => {
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"status":"success","is_virus":false,"message":"No active service detected this file"}');
      }, SLOW_MS);
    });
    client = new HashScanClient({ apiKey: 'k', baseUrl: service.url, cache: false, retry: false });
  });
  afterAll(() => service.close());

  /** The one outcome each method gives for HASH (a file holding it, for scanFile) under `options`. */
  const methods: Record<string, (options: ScanOptions) => Promise<ScanOutcome>> = {
    scanOutcome: (options) => client.scanOutcome(HASH, options),
    scanFile: async (options) => {
      const path = join(dir, 'file');
      writeFileSync(path, 'x');
      return client.scanFile(path, options);
    },
    scanMany: async (options) => (await client.scanMany([HASH], options))[0] as ScanOutcome,
    scanIterable: async (options) => {
      for await (const outcome of client.scanIterable([HASH], options)) return outcome;
      throw new Error('no outcome');
    },
  };

  for (const [name, lookUp] of Object.entries(methods)) {
    it(`${name}: totalTimeoutMs ends the lookup with TIMEOUT, as scan does`, async () => {
      const started = performance.now();
      const outcome = await lookUp({ totalTimeoutMs: 300 });
      expect(outcome).toMatchObject({ verdict: 'error', error: { code: 'TIMEOUT' } });
      // Generous: the point is "long before the answer", not a timing.
      expect(performance.now() - started).toBeLessThan(SLOW_MS - 500);
    });

    it(`${name}: an invalid totalTimeoutMs is a ConfigurationError, as for scan`, async () => {
      await expect(client.scan(HASH, { totalTimeoutMs: -1 })).rejects.toBeInstanceOf(ConfigurationError);
      await expect(lookUp({ totalTimeoutMs: -1 })).rejects.toBeInstanceOf(ConfigurationError);
    });

    it(`${name}: signal aborts the lookup (ABORTED), as scan does`, async () => {
      const controller = new AbortController();
      const pending = lookUp({ signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      await expect(pending).resolves.toMatchObject({ verdict: 'error', error: { code: 'ABORTED' } });
    });
  }
});
