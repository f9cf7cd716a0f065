import ky from 'ky';

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

/**
 * What the spec tells callers to do with a batch, written by hand: look up
 * each distinct hash once (a `Set`), then answer every input from the outcome
 * of its hash.
 */
export async function deduplicated(
  hashes: readonly string[],
  lookUp: (unique: string[]) => Promise<RawOutcome[]>,
): Promise<RawOutcome[]> {
  const unique = [...new Set(hashes)];
  const outcomes = await lookUp(unique);
  const byHash = new Map(outcomes.map((outcome) => [outcome.hash, outcome]));
  return hashes.map((hash) => byHash.get(hash) as RawOutcome);
}

/** Per-request time-out of the careful loops: the spec's 10 s, covering headers and body. */
const TIMEOUT_MS = 10_000;

/** The bare reference: global `fetch`, then `res.text()`; no time-out, so a stalled server hangs it forever. */
export async function bareGet(url: string): Promise<RawAnswer> {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
}

/**
 * One answer under the careful loops' time-out: an `AbortController` aborted
 * by a timer that is cleared only once the body is read, so a stalled body is
 * cut off too.
 */
async function answerWithin(send: (signal: AbortSignal) => Promise<Response>): Promise<RawAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    const res = await send(controller.signal);
    return { status: res.status, text: await res.text() };
  } finally {
    clearTimeout(timer);
  }
}

/** The careful hand-written `fetch`: the per-request time-out of {@link answerWithin}. */
export function carefulGet(url: string): Promise<RawAnswer> {
  return answerWithin((signal) => fetch(url, { signal }));
}

/**
 * The careful loop written with ky: one instance with ky's retry, time-out
 * (which stops at the headers) and HTTP errors off, and the same time-out as
 * {@link carefulGet} passed as `signal`. What ky itself costs per request.
 */
export function kyGetter(): (url: string) => Promise<RawAnswer> {
  const api = ky.create({ retry: 0, timeout: false, throwHttpErrors: false });
  return (url) => answerWithin((signal) => api(url, { signal }));
}

/**
 * ky with no time-out of its own (only its `retry`, `timeout` and HTTP errors
 * off): the floor of what a request through ky costs, whatever the caller adds.
 */
export function kyBareGetter(): (url: string) => Promise<RawAnswer> {
  const api = ky.create({ retry: 0, timeout: false, throwHttpErrors: false });
  return async (url) => {
    const res = await api(url);
    return { status: res.status, text: await res.text() };
  };
}

/** Throws unless every outcome is the expected non-detection. */
export function expectAllNotDetected(outcomes: readonly { verdict: string }[], what: string): void {
  const bad = outcomes.filter((outcome) => outcome.verdict !== 'not_detected');
  if (bad.length > 0) throw new Error(`${what}: ${bad.length} of ${outcomes.length} answers were not not_detected`);
}

/**
 * Runs `task` over `items` with at most `concurrency` at once; results keep
 * the input order. `task` must not reject (callers turn errors into values).
 */
async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
