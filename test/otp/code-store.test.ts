import { describe, expect, it } from 'vitest';
import { MemoryCodeStore, type StoredCode } from '../../src/otp/code-store.js';

const code = (id: string, sentAt: number): StoredCode => ({ id, hash: 'h', sentAt, expiresAt: sentAt + 100 });

describe('MemoryCodeStore: bounded, swept', () => {
  it('forgets the oldest record past maxEntries', async () => {
    const store = new MemoryCodeStore({ cooldownMs: 0, keepMs: 200 }, 2);
    for (const key of ['a', 'b', 'c']) await store.start(key, code(key, 0), 0);
    expect(store.size).toBe(2);
    await expect(store.attempt('a', 1)).resolves.toEqual({ kind: 'none' });
    await expect(store.attempt('c', 1)).resolves.toMatchObject({ kind: 'counted', attempts: 1 });
  });

  it('sweeps records past keepMs when a new one starts', async () => {
    const store = new MemoryCodeStore({ cooldownMs: 0, keepMs: 200 }, 100);
    for (const key of ['a', 'b', 'c']) await store.start(key, code(key, 0), 0);
    await store.start('d', code('d', 500), 500);
    expect(store.size).toBe(1);
  });
});
