import { describe, expect, it } from 'vitest';
import { type CredentialRules, CredentialSource } from '../../src/secrets/credentials.js';

interface Keys {
  readonly id: string;
  readonly secret: string;
}

const rules: CredentialRules<Keys> = {
  option: 'credentials',
  check: (raw) => ({ value: raw as Keys, expiresAt: undefined }),
  accept: () => {},
  redact: (text) => text,
  timeoutMs: 1_000,
};

/** A provider whose answer the test sets, counting its calls; each answer is a new object. */
function provider(initial: Keys) {
  const state = { current: initial, calls: 0, fail: false };
  const ask = async (): Promise<Keys> => {
    state.calls += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (state.fail) throw new Error('vault down');
    return { ...state.current };
  };
  return { state, ask };
}

describe('CredentialSource.refresh (after an auth refusal)', () => {
  it('asks the provider again once for every call refused at the same time, and says whether the value changed', async () => {
    const { state, ask } = provider({ id: 'a', secret: 'old' });
    const source = CredentialSource.provided(ask, rules);
    const used = await source.current();
    state.current = { id: 'a', secret: 'new' }; // rotated
    const refused = Array.from({ length: 20 }, () => source.refresh(used));
    await expect(Promise.all(refused)).resolves.toEqual(Array(20).fill(true));
    expect(state.calls).toBe(2);
    expect(source.current()).toEqual({ id: 'a', secret: 'new' });
    // A call refused with the old value after the new one came: true at once, no provider call.
    await expect(source.refresh(used)).resolves.toBe(true);
    expect(state.calls).toBe(2);
  });

  it('resolves false when the provider gives the same values again (no retry) or fails', async () => {
    const { state, ask } = provider({ id: 'a', secret: 's' });
    const source = CredentialSource.provided(ask, rules);
    const used = await source.current();
    await expect(source.refresh(used)).resolves.toBe(false);
    expect(state.calls).toBe(2);
    state.fail = true;
    await expect(source.refresh(used)).resolves.toBe(false);
    state.fail = false;
    state.current = { id: 'b', secret: 't' };
    await expect(source.current()).resolves.toEqual({ id: 'b', secret: 't' }); // the next call asks again
  });

  it('never asks again for a fixed credential', () => {
    const keys = { id: 'a', secret: 's' };
    expect(CredentialSource.fixed(keys).refresh(keys)).toBe(false);
  });
});
