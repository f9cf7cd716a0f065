import { describe, expect, it } from 'vitest';
import type { Observer, ObserverEvent } from '../../../src/observe/events.js';
import { createRedactor } from '../../../src/secrets/redact.js';
import type { Exchange, FetchLike, TransportFailure } from '../../../src/transport/call/transport.js';
import { Transport } from '../../../src/transport/call/transport.js';
import { resolveTransportSettings } from '../../../src/transport/settings/client-options.js';

/** A service answering each request with the next status of `statuses` (the last one repeats). */
function service(statuses: number[]): { fetch: FetchLike; seen: string[] } {
  const seen: string[] = [];
  const fetch: FetchLike = async (input) => {
    seen.push(new URL(input.url).searchParams.get('key') ?? '');
    const status = statuses[Math.min(seen.length - 1, statuses.length - 1)] ?? 500;
    return new Response(JSON.stringify({ status }), { status });
  };
  return { fetch, seen };
}

class Refusal extends Error {
  constructor(
    readonly code: string,
    readonly attempts: number,
  ) {
    super(code);
  }
}

function transport(fetch: FetchLike, observer: Observer, retries = 0): Transport {
  const settings = resolveTransportSettings(
    { baseUrl: 'https://svc.test', fetch, retry: retries === 0 ? false : { retries, minDelayMs: 1, maxDelayMs: 2 } },
    { baseUrlEnv: 'UNUSED_BASE_URL', name: 'hashscan', cooldownMs: 1_000 },
    createRedactor({ secrets: [], params: { key: 'full' } }),
    [observer],
  );
  return new Transport(settings);
}

/** An exchange whose credentials are a key that a `refresh` round replaces (as a provider asked again would). */
function keyedExchange(hook: NonNullable<Exchange<number>['extraRound']>): Exchange<number> & { key: string } {
  const exchange = {
    key: 'old-key',
    build: () => ({ method: 'GET' as const, path: `/?key=${exchange.key}` }),
    interpret: (response: { status: number; attempt: number }) => {
      if (response.status === 401) throw new Refusal('AUTH', response.attempt);
      if (response.status >= 500) throw new Refusal('HTTP_5XX', response.attempt);
      return response.attempt;
    },
    fail: (failure: TransportFailure) => new Refusal(failure.code, failure.attempts),
    isRetryable: (error: unknown) => error instanceof Refusal && error.code === 'HTTP_5XX',
    extraRound: hook,
  };
  return exchange;
}

describe('the extra-round seam', () => {
  it('runs an async refresh round in the same loop, without spending a retry, attempts numbered on', async () => {
    const { fetch, seen } = service([401, 200]);
    const events: ObserverEvent[] = [];
    const exchange = keyedExchange(async (error, rounds) => {
      if (rounds > 0 || !(error instanceof Refusal) || error.code !== 'AUTH') return undefined;
      await new Promise((resolve) => setTimeout(resolve, 1));
      exchange.key = 'new-key';
      return 'refresh';
    });
    const answered = await transport(fetch, { observe: (event) => events.push(event) }).send(exchange);
    expect(answered).toBe(2);
    expect(seen).toEqual(['old-key', 'new-key']);
    expect(events.filter((event) => event.type === 'retry')).toEqual([
      expect.objectContaining({ kind: 'refresh', attempt: 1, delayMs: 0, reason: 'AUTH' }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'call:end', attempts: 2 });
  });

  it('bounds the rounds by what the hook says, then the retry policy decides as usual', async () => {
    const { fetch, seen } = service([401, 401, 500, 200]);
    const exchange = keyedExchange((error, rounds) =>
      rounds < 2 && error instanceof Refusal && error.code === 'AUTH' ? 'refresh' : undefined,
    );
    // Two rounds, then a 500 retried once (the one retry allowed), then 200 on attempt 4.
    await expect(transport(fetch, { observe: () => {} }, 1).send(exchange)).resolves.toBe(4);
    expect(seen).toHaveLength(4);
    const { fetch: refusing } = service([401]);
    const stubborn = keyedExchange((error, rounds) => (rounds < 1 && error instanceof Refusal ? 'refresh' : undefined));
    await expect(transport(refusing, { observe: () => {} }).send(stubborn)).rejects.toMatchObject({
      code: 'AUTH',
      attempts: 2,
    });
  });

  it('ends the call with the error of a hook that rejects', async () => {
    const { fetch, seen } = service([401, 200]);
    const exchange = keyedExchange(() => Promise.reject(new Refusal('CREDENTIALS', 1)));
    await expect(transport(fetch, { observe: () => {} }).send(exchange)).rejects.toMatchObject({ code: 'CREDENTIALS' });
    expect(seen).toHaveLength(1);
  });

  it('never asks the hook once the caller has aborted', async () => {
    const { fetch } = service([401, 200]);
    const controller = new AbortController();
    let asked = 0;
    const exchange = {
      ...keyedExchange(() => {
        asked += 1;
        return 'refresh';
      }),
      signal: controller.signal,
      interpret: () => {
        controller.abort();
        throw new Refusal('AUTH', 1);
      },
    };
    await expect(transport(fetch, { observe: () => {} }).send(exchange)).rejects.toMatchObject({ code: 'AUTH' });
    expect(asked).toBe(0);
  });
});
