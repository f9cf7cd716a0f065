import { mapConcurrent } from '../../src/util/concurrency.js';

/** What a hand-written client makes of one answer. */
export interface RawOutcome {
  readonly hash: string;
  readonly verdict: 'malicious' | 'not_detected' | 'error';
  readonly message?: string;
}

/** One HTTP exchange as a raw loop sees it. */
export interface RawAnswer {
  readonly status: number;
  readonly text: string;
}

const NOT_DETECTED_KEYS = ['is_virus', 'message', 'status'];

/** The shape checks a careful hand-written client does: status, is_virus, then the exact non-detection keys. */
function check(hash: string, { status, text }: RawAnswer): RawOutcome {
  if (status < 200 || status > 299) return { hash, verdict: 'error' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { hash, verdict: 'error' };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { hash, verdict: 'error' };
  const record = body as Record<string, unknown>;
  if (record.status !== 'success' || typeof record.is_virus !== 'boolean') return { hash, verdict: 'error' };
  if (record.is_virus) return { hash, verdict: 'malicious' };
  const keys = Object.keys(record).sort();
  const exact = keys.length === NOT_DETECTED_KEYS.length && keys.every((key, i) => key === NOT_DETECTED_KEYS[i]);
  if (!exact || typeof record.message !== 'string') return { hash, verdict: 'error' };
  return { hash, verdict: 'not_detected', message: record.message };
}

/**
 * A hand-written lookup loop: the URL built with the encoded key, `get` for
 * each hash, `concurrency` at a time (the same pool the SDK's batches use),
 * every answer checked. Contenders differ only in `get`.
 */
export function rawLoop(
  baseUrl: string,
  apiKey: string,
  hashes: readonly string[],
  concurrency: number,
  get: (url: string) => Promise<RawAnswer>,
): Promise<RawOutcome[]> {
  const prefix = `${baseUrl}/hash_scan?api_key=${encodeURIComponent(apiKey)}&hash=`;
  return mapConcurrent(hashes, concurrency, async (hash) => {
    try {
      return check(hash, await get(prefix + encodeURIComponent(hash)));
    } catch {
      return { hash, verdict: 'error' };
    }
  });
}

/** The baseline: global `fetch`, then `res.text()` (`res.ok` is the status check in `check`). */
export async function fetchGet(url: string): Promise<RawAnswer> {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
}

/**
 * `fetch` with the per-request time-out any production loop needs (an
 * `AbortController` aborted by a timer): what a cancellable `fetch` costs.
 */
export async function fetchWithTimeoutGet(url: string): Promise<RawAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  try {
    const res = await fetch(url, { signal: controller.signal });
    return { status: res.status, text: await res.text() };
  } finally {
    clearTimeout(timer);
  }
}

/** Throws unless every outcome is the expected non-detection. */
export function expectAllNotDetected(outcomes: readonly { verdict: string }[], what: string): void {
  const bad = outcomes.filter((outcome) => outcome.verdict !== 'not_detected');
  if (bad.length > 0) throw new Error(`${what}: ${bad.length} of ${outcomes.length} answers were not not_detected`);
}
