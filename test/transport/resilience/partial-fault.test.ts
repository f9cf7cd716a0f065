import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { HashScanClient } from '../../../src/hashscan/hashscan-client.js';
import { type Loopback, startLoopback } from '../../helpers/loopback.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const NOT_DETECTED = JSON.stringify({
  status: 'success',
  is_virus: false,
  message: 'No active service detected this file',
});
/** A tenth of the hashes, picked by their own digest: those always fail. */
const failing = (hash: string): boolean => (createHash('sha256').update(hash).digest()[0] ?? 0) < 26;

describe('a partial fault (real loopback server)', () => {
  it('10 % of hashes always 500, 64 concurrent callers: the circuit stays closed, every other hash keeps its verdict', async () => {
    server = await startLoopback((request, response) => {
      const hash = new URL(request.url ?? '/', 'http://x').searchParams.get('hash') ?? '';
      response.writeHead(failing(hash) ? 500 : 200, { 'content-type': 'application/json' });
      response.end(failing(hash) ? '{}' : NOT_DETECTED);
    });
    // Short back-off, so failing calls end in bunches after their retries while successes keep flowing.
    const client = new HashScanClient({
      apiKey: 'k',
      baseUrl: server.url,
      cache: false,
      retry: { retries: 2, minDelayMs: 40, maxDelayMs: 80 },
    });
    const hashes = Array.from({ length: 3_000 }, (_, i) => i.toString(16).padStart(64, '0'));
    let next = 0;
    let kept = 0;
    let valid = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < hashes.length) {
          const hash = hashes[next++] as string;
          const outcome = await client.scanOutcome(hash);
          if (failing(hash)) {
            expect(outcome.verdict).toBe('error'); // fail-closed, always
          } else {
            valid += 1;
            if (outcome.verdict === 'not_detected') kept += 1;
          }
        }
      }),
    );
    expect(kept / valid).toBeGreaterThanOrEqual(0.99);
    expect(client.stats()).toMatchObject({ circuit: 'closed', circuitOpened: 0, rejectedByCircuit: 0 });
  }, 60_000); // thousands of real requests: only a hang should fail it, never a loaded machine
});
