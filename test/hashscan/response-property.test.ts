import fc from 'fast-check';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { HashScanError } from '../../src/errors/hashscan-error.js';
import { makeClient, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();

/** The one body shape the spec documents for a non-detection. */
function isDocumentedNonDetection(status: number, body: unknown): boolean {
  if (status < 200 || status > 299) return false;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const keys = Object.keys(body).sort();
  const record = body as Record<string, unknown>;
  return (
    keys.join() === 'is_virus,message,status' &&
    record.status === 'success' &&
    record.is_virus === false &&
    typeof record.message === 'string'
  );
}

const nearNonDetection = fc.record(
  {
    status: fc.oneof(fc.constant('success'), fc.string(), fc.integer()),
    is_virus: fc.oneof(fc.constant(false), fc.constant(true), fc.jsonValue()),
    message: fc.oneof(fc.string(), fc.jsonValue()),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

describe('property: not_detected only for the exact documented shape', () => {
  it('holds for arbitrary JSON bodies and statuses', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(nearNonDetection, fc.jsonValue(), fc.constant(NOT_DETECTED)),
        fc.oneof(fc.constant(200), fc.constantFrom(201, 204, 299, 301, 400, 404, 429, 500, 503)),
        async (body, status) => {
          const init = { status };
          serveLookup(server, () =>
            status === 204 ? new HttpResponse(null, init) : new HttpResponse(JSON.stringify(body), init),
          );
          // A client per run: each run is one answer, and five 5xx/429 runs in a row
          // would otherwise open the shared circuit breaker for the runs after them.
          const client = makeClient({ retry: false });
          const outcome = await client.scan(SHA256).then(
            (result) => result.verdict,
            (error: unknown) => (error instanceof HashScanError ? 'error' : 'crash'),
          );
          const expected = isDocumentedNonDetection(status, status === 204 ? undefined : body);
          expect(outcome === 'not_detected').toBe(expected);
          expect(outcome).not.toBe('crash');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds for arbitrary non-JSON text', async () => {
    const client = makeClient({ retry: false });
    await fc.assert(
      fc.asyncProperty(fc.string(), async (text) => {
        serveLookup(server, () => new HttpResponse(text, { status: 200 }));
        const verdict = await client.scan(SHA256).then(
          (result) => result.verdict,
          () => 'error',
        );
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        expect(verdict === 'not_detected').toBe(isDocumentedNonDetection(200, parsed));
      }),
      { numRuns: 200 },
    );
  });
});
