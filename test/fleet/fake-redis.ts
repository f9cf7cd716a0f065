/** Test doubles of a Redis client for the fleet's units: no server, every command recorded. */

/** A node-redis-like client over a map of keys, recording every command; `handle` answers each. */
export function fakeRedis(handle: (args: string[], keys: Map<string, string>) => Promise<unknown>) {
  const keys = new Map<string, string>();
  const commands: string[][] = [];
  const client = {
    isReady: true,
    options: { disableOfflineQueue: true },
    sendCommand: (args: string[]): Promise<unknown> => {
      commands.push(args);
      return handle(args, keys);
    },
  };
  return { client, keys, commands };
}
