import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import {
  CREDENTIAL_REFRESH_WINDOW_MS,
  type CredentialRules,
  CredentialSource,
  DEFAULT_CREDENTIAL_TTL_MS,
  readExpiry,
} from '../../src/secrets/credentials.js';

afterEach(() => {
  vi.useRealTimers();
});

const NOW = new Date('2030-01-01T00:00:00Z').getTime();

function rules(accepted: string[] = [], timeoutMs = 1_000): CredentialRules<string> {
  return {
    option: 'apiKey',
    check: (raw) => {
      if (typeof raw === 'string' && raw !== '') return { value: raw, expiresAt: undefined };
      if (typeof raw === 'object' && raw !== null && 'key' in raw) {
        const { key, expiresAt } = raw as { key: string; expiresAt?: number };
        return { value: key, expiresAt };
      }
      return 'returned nothing';
    },
    accept: (value) => accepted.push(value),
    redact: (text) => text.replaceAll('TOP-SECRET', '***'),
    timeoutMs,
  };
}

describe('CredentialSource', () => {
  it('a fixed value is returned as is, never as a promise', () => {
    const source = CredentialSource.fixed('key');
    expect(source.current()).toBe('key');
    source.invalidate();
    expect(source.current()).toBe('key');
  });

  it('concurrent callers share one provider call; the value is then ready without a promise', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    let calls = 0;
    let release: (key: string) => void = () => {};
    const provider = () => {
      calls += 1;
      return new Promise<string>((resolve) => {
        release = resolve;
      });
    };
    const accepted: string[] = [];
    const source = CredentialSource.provided(provider, rules(accepted));
    const waiting = Array.from({ length: 10 }, () => source.current());
    expect(waiting.every((value) => value instanceof Promise)).toBe(true);
    await vi.waitFor(() => expect(calls).toBe(1));
    release('k1');
    await expect(Promise.all(waiting)).resolves.toEqual(Array(10).fill('k1'));
    expect(calls).toBe(1);
    expect(accepted).toEqual(['k1']);
    expect(source.current()).toBe('k1');
  });

  it('asks again when the value expires (10 s early), and after 5 minutes without an expiry', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const answers: unknown[] = [{ key: 'k1', expiresAt: NOW + 60_000 }, 'k2', 'k3'];
    const source = CredentialSource.provided(() => answers.shift(), rules());
    await expect(source.current()).resolves.toBe('k1');
    vi.setSystemTime(NOW + 60_000 - CREDENTIAL_REFRESH_WINDOW_MS - 1);
    expect(source.current()).toBe('k1');
    vi.setSystemTime(NOW + 60_000 - CREDENTIAL_REFRESH_WINDOW_MS);
    await expect(source.current()).resolves.toBe('k2');
    const fetched = Date.now();
    vi.setSystemTime(fetched + DEFAULT_CREDENTIAL_TTL_MS - CREDENTIAL_REFRESH_WINDOW_MS - 1);
    expect(source.current()).toBe('k2');
    vi.setSystemTime(fetched + DEFAULT_CREDENTIAL_TTL_MS);
    await expect(source.current()).resolves.toBe('k3');
  });

  it('invalidate() makes the next call ask again', async () => {
    let n = 0;
    const source = CredentialSource.provided(() => `k${++n}`, rules());
    await expect(source.current()).resolves.toBe('k1');
    expect(source.current()).toBe('k1');
    source.invalidate();
    await expect(source.current()).resolves.toBe('k2');
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('vault down: TOP-SECRET');
      },
      'apiKey: the provider failed',
    ],
    ['rejects', () => Promise.reject(new Error('vault down: TOP-SECRET')), 'apiKey: the provider failed'],
    ['returns nothing', () => undefined, 'apiKey: the provider returned nothing'],
    ['returns an empty string', () => '', 'apiKey: the provider returned nothing'],
  ])(
    'a provider that %s fails that call with a ConfigurationError, then is asked again',
    async (_, provider, message) => {
      let calls = 0;
      const source = CredentialSource.provided(() => {
        calls += 1;
        return calls === 1 ? provider() : 'good';
      }, rules());
      const error = await Promise.resolve(source.current()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).toMatchObject({ code: 'CONFIGURATION', option: 'apiKey', message });
      expect(JSON.stringify(error)).not.toContain('TOP-SECRET');
      expect(String((error as Error).cause ?? '')).not.toContain('TOP-SECRET');
      await expect(source.current()).resolves.toBe('good');
    },
  );

  it('a provider that hangs fails after the time-out (fake timers)', async () => {
    vi.useFakeTimers();
    const source = CredentialSource.provided(() => new Promise(() => {}), rules([], 2_000));
    const pending = Promise.resolve(source.current()).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_999);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toMatchObject({ message: 'apiKey: the provider gave no answer within 2000 ms' });
  });

  it('readExpiry reads Dates, epoch ms and ISO strings', () => {
    expect(readExpiry(undefined)).toBeUndefined();
    expect(readExpiry(new Date(NOW))).toBe(NOW);
    expect(readExpiry(NOW)).toBe(NOW);
    expect(readExpiry('2030-01-01T00:00:00Z')).toBe(NOW);
    expect(readExpiry('soon')).toBeNull();
    expect(readExpiry(Number.NaN)).toBeNull();
    expect(readExpiry({})).toBeNull();
  });
});
