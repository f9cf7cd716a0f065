import { vi } from 'vitest';
import { HashScanClient, type HashScanClientOptions } from '../../src/hashscan/hashscan-client.js';

/**
 * A service that fails on a schedule, driven on fake time: `rate` calls a
 * second, each for a distinct hash, against a service whose answer depends
 * only on the fake clock. Deterministic: `Math.random` (retry and breaker
 * jitter) is a seeded stream while it runs. Call with fake timers on
 * (`setTimeout`, `clearTimeout`, `Date`, `performance`).
 */
export interface Schedule {
  /** Whole simulated run, in ms (calls start during it; the run waits for every call to end). */
  readonly durationMs: number;
  /** Calls started per second, evenly spaced; or, with `callers`, none: each caller starts its next call when one ends. */
  readonly rate: number;
  /** Concurrent callers making `calls` calls in all, one after another each (instead of `rate`). */
  readonly callers?: { readonly count: number; readonly calls: number };
  /** What the service does at fake time `now` for `hash`: an HTTP status, or `hang` (never answers). */
  readonly answer: (now: number, hash: string) => number | 'hang';
}

export interface SimFigures {
  readonly calls: number;
  /** Calls that got a verdict. */
  readonly answered: number;
  /** Requests the service received. */
  readonly requests: number;
  readonly circuitOpen: number;
}

const NOT_DETECTED = JSON.stringify({
  status: 'success',
  is_virus: false,
  message: 'No active service detected this file',
});

/** A deterministic stream of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Runs `schedule` against a client built with `options` (on top of an API key, a base URL and `fetch`). */
export async function simulate(schedule: Schedule, options: HashScanClientOptions, seed = 1): Promise<SimFigures> {
  const random = vi.spyOn(Math, 'random').mockImplementation(seeded(seed));
  const start = performance.now();
  let requests = 0;
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    requests += 1;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const answer = schedule.answer(performance.now() - start, url.searchParams.get('hash') ?? '');
    if (answer === 'hang') {
      return new Promise((_resolve, reject) => {
        const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    const body = answer === 200 ? NOT_DETECTED : '{}';
    return Promise.resolve(new Response(body, { status: answer, headers: { 'content-type': 'application/json' } }));
  };
  try {
    const client = new HashScanClient({ apiKey: 'k', baseUrl: 'https://burst.test', cache: false, fetch, ...options });
    type Outcome = { verdict: string; error?: { code: string } };
    const outcomes: Promise<Outcome>[] = [];
    const call = (): Promise<Outcome> => {
      const hash = outcomes.length.toString(16).padStart(64, '0');
      const outcome = client.scanOutcome(hash) as Promise<Outcome>;
      outcomes.push(outcome);
      return outcome;
    };
    const { callers } = schedule;
    if (callers !== undefined) {
      const loops = Array.from({ length: callers.count }, async () => {
        while (outcomes.length < callers.calls) await call();
      });
      let done = false;
      void Promise.all(loops).then(() => {
        done = true;
      });
      while (!done) await vi.advanceTimersByTimeAsync(10);
    } else {
      const spacing = 1_000 / schedule.rate;
      for (let at = 0; at < schedule.durationMs; at += spacing) {
        call();
        await vi.advanceTimersByTimeAsync(spacing);
      }
    }
    let settled = false;
    const all = Promise.all(outcomes).finally(() => {
      settled = true;
    });
    while (!settled) await vi.advanceTimersByTimeAsync(100);
    const results = await all;
    return {
      calls: results.length,
      answered: results.filter((r) => r.verdict !== 'error').length,
      requests,
      circuitOpen: results.filter((r) => r.error?.code === 'CIRCUIT_OPEN').length,
    };
  } finally {
    random.mockRestore();
  }
}
