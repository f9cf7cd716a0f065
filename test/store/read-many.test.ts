/**
 * A shared store with the read-many capability is read once per window by
 * `scanIterable` over an array; a reply that is not one value per key is
 * never trusted: each lookup then reads for itself, as without the capability.
 */
import { describe, expect, it } from 'vitest';
import type { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { READ_MANY } from '../../src/store/read-many.js';
import { hashes } from '../fleet/fleet-helpers.js';
import { json, makeClient, NOT_DETECTED, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();
const SECRET = 'the-read-many-test-cache-secret-0123456789';

/** A Map as a shared store, counting its calls; `readMany` answers its read of many keys. */
function mapStore(readMany: (keys: readonly string[], map: Map<string, string>) => unknown) {
  const map = new Map<string, string>();
  const calls = { get: 0, readMany: 0 };
  const store = {
    get: async (key: string) => {
      calls.get += 1;
      return map.get(key);
    },
    set: async (key: string, value: string) => void map.set(key, value),
    delete: async (key: string) => map.delete(key),
    [READ_MANY]: async (keys: readonly string[]) => {
      calls.readMany += 1;
      return readMany(keys, map);
    },
  };
  return { store, calls };
}

async function scanAll(client: HashScanClient, list: readonly string[]): Promise<string[]> {
  const verdicts: string[] = [];
  for await (const outcome of client.scanIterable(list, { concurrency: 8 })) verdicts[outcome.index] = outcome.verdict;
  return verdicts;
}

describe('a shared store that reads many keys at once', () => {
  it('is read once per window of 256 hashes, and no lookup reads on its own', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const { store, calls } = mapStore((keys, map) => keys.map((key) => map.get(key) ?? null));
    const client = makeClient({ cache: { store, secret: SECRET, storeTimeoutMs: 5_000 } });
    const list = hashes(300, 'read-many');
    expect(await scanAll(client, list)).toEqual(list.map(() => 'not_detected'));
    expect(calls).toEqual({ get: 0, readMany: 2 });
    expect(requests).toHaveLength(300);
  });

  it.each([
    ['one value short', (keys: readonly string[]) => keys.slice(1).map(() => null)],
    ['not an array', () => 'OK'],
  ])('a reply that is %s is not trusted: each lookup reads for itself', async (_name, reply) => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const { store, calls } = mapStore(reply);
    const client = makeClient({ cache: { store, secret: SECRET, storeTimeoutMs: 5_000 } });
    const list = hashes(10, 'read-many-bad');
    expect(await scanAll(client, list)).toEqual(list.map(() => 'not_detected'));
    expect(calls).toEqual({ get: 10, readMany: 1 });
    expect(requests).toHaveLength(10);
  });
});
