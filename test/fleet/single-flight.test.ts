/**
 * A `SET NX` claim whose reply came too late may still have taken the lock
 * with this replica's token (issue 28: a Redis call that timed out may
 * still have run). It is released by token all the same, or other replicas
 * wait `lookupWaitMs` for an answer that never comes.
 */
import { describe, expect, it } from 'vitest';
import { FleetLookups } from '../../src/fleet/single-flight.js';
import { NO_OBSERVERS } from '../../src/observe/observers.js';
import { RedisLink } from '../../src/redis/redis-link.js';
import { fakeRedis } from './fake-redis.js';

/** A node-redis-like client over a map: `SET` runs at once but replies after `setReplyMs`; `EVAL` is the release. */
function slowSetRedis(setReplyMs: number) {
  return fakeRedis(async (args, keys) => {
    const [command, ...rest] = args;
    if (command === 'SET') {
      const [key = '', value = ''] = rest;
      const taken = !keys.has(key);
      if (taken) keys.set(key, value);
      await new Promise((resolve) => setTimeout(resolve, setReplyMs));
      return taken ? 'OK' : null;
    }
    if (command === 'EVAL') {
      // The release script: delete only if the key holds this token.
      const [, , key = '', token = ''] = rest;
      if (keys.get(key) !== token) return 0;
      keys.delete(key);
      return 1;
    }
    return null;
  });
}

describe('FleetLookups: a claim that timed out', () => {
  it('is released by token after the lookup, even while the link steps aside after that time-out', async () => {
    const redis = slowSetRedis(200);
    const link = new RedisLink(redis.client, { timeoutMs: 20, observers: NO_OBSERVERS, name: 'hashscan' });
    const lookups = new FleetLookups(link, { keyPrefix: 'p', waitMs: 5_000 });
    let asked = 0;
    const answer = await lookups.run(
      'abc',
      async () => {
        asked += 1;
        // The late SET has taken the lock by now.
        await new Promise((resolve) => setTimeout(resolve, 250));
        expect(redis.keys.has('p:lookup:abc')).toBe(true);
        return 'verdict';
      },
      () => undefined,
      new AbortController().signal,
    );
    expect(answer).toBe('verdict');
    expect(asked).toBe(1);
    expect(link.counters.errors).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(redis.commands.map(([command]) => command)).toEqual(['SET', 'EVAL']);
    expect(redis.keys.has('p:lookup:abc')).toBe(false);
    expect(lookups.counters).toMatchObject({ owned: 0, joined: 0, gaveUp: 0 });
  });

  it('is not released when no claim was sent (the link was stepping aside): nothing to undo', async () => {
    const redis = slowSetRedis(200);
    const link = new RedisLink(redis.client, { timeoutMs: 20, observers: NO_OBSERVERS, name: 'hashscan' });
    link.outOfRange('TEST'); // the link steps aside for a while
    const lookups = new FleetLookups(link, { keyPrefix: 'p', waitMs: 5_000 });
    await expect(
      lookups.run(
        'abc',
        async () => 'verdict',
        () => undefined,
        new AbortController().signal,
      ),
    ).resolves.toBe('verdict');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(redis.commands).toEqual([]);
  });
});

/**
 * A node-redis-like client over a map whose claim script (an `EVAL` of many
 * keys) runs at once but replies after `replyMs`; its other `EVAL`s release keys by token.
 */
function slowClaimScriptRedis(replyMs: number) {
  return fakeRedis(async (args, keys) => {
    const [command, script = '', count = '0', ...rest] = args;
    if (command !== 'EVAL') return null;
    const claimKeys = rest.slice(0, Number(count));
    const [token = ''] = rest.slice(Number(count));
    if (script.includes("'NX'")) {
      const claimed = claimKeys.map((key) => {
        if (keys.has(key)) return 0;
        keys.set(key, token);
        return 1;
      });
      await new Promise((resolve) => setTimeout(resolve, replyMs));
      return claimed;
    }
    // A release of many keys: each deleted only if it still holds the token.
    let released = 0;
    for (const key of claimKeys) {
      if (keys.get(key) === token) released += Number(keys.delete(key));
    }
    return released;
  });
}

describe('FleetLookups: claims taken ahead for a window', () => {
  const ask = (hash: string) => async () => `verdict of ${hash}`;
  const never = () => undefined;

  it('each run() uses its claim (no SET NX of its own); the claims are released by token together', async () => {
    const redis = slowClaimScriptRedis(0);
    const link = new RedisLink(redis.client, { timeoutMs: 1_000, observers: NO_OBSERVERS, name: 'hashscan' });
    const lookups = new FleetLookups(link, { keyPrefix: 'p', waitMs: 5_000 });
    await lookups.claimAhead(['a', 'b']);
    expect([...redis.keys.keys()]).toEqual(['p:lookup:a', 'p:lookup:b']);
    const signal = new AbortController().signal;
    await expect(
      Promise.all([lookups.run('a', ask('a'), never, signal), lookups.run('b', ask('b'), never, signal)]),
    ).resolves.toEqual(['verdict of a', 'verdict of b']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The claim script, then one release of both keys.
    expect(redis.commands.map((args) => args.slice(0, 1).concat(args.slice(2, 5)))).toEqual([
      ['EVAL', '2', 'p:lookup:a', 'p:lookup:b'],
      ['EVAL', '2', 'p:lookup:a', 'p:lookup:b'],
    ]);
    expect(redis.keys.size).toBe(0);
    expect(lookups.counters).toMatchObject({ owned: 2, joined: 0, gaveUp: 0 });
  });

  it('a claim script that timed out may have run: each run() asks as a possible owner and releases by token', async () => {
    const redis = slowClaimScriptRedis(200);
    const link = new RedisLink(redis.client, { timeoutMs: 20, observers: NO_OBSERVERS, name: 'hashscan' });
    const lookups = new FleetLookups(link, { keyPrefix: 'p', waitMs: 5_000 });
    await lookups.claimAhead(['a']);
    expect(link.counters.errors).toBe(1);
    // The late script has taken the lock by now: without its token, run() would wait for this replica's own lock.
    expect(redis.keys.has('p:lookup:a')).toBe(true);
    await expect(lookups.run('a', ask('a'), never, new AbortController().signal)).resolves.toBe('verdict of a');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(redis.commands.map(([command]) => command)).toEqual(['EVAL', 'EVAL']);
    expect(redis.keys.size).toBe(0);
    expect(lookups.counters).toMatchObject({ owned: 0, joined: 0, gaveUp: 0 });
  });
});
