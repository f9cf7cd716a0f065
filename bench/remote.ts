/**
 * Benchmark 1b: the contenders of benchmark 1 against a server that answers
 * each lookup 20 ms late (a remote service), concurrency 64. Here waiting,
 * not CPU, should decide: the SDK must keep up with the careful loop.
 */
import type { Settings } from './lib/config.js';
import type { Sdk } from './lib/sdk.js';
import { startServer } from './lib/server.js';
import { type ThroughputResult, throughput } from './throughput.js';

export const REMOTE_DELAY_MS = 20;

export async function remote(sdk: Sdk, settings: Settings, before?: Sdk): Promise<ThroughputResult> {
  const server = await startServer(REMOTE_DELAY_MS);
  try {
    return await throughput(sdk, server, settings, settings.remoteBatch, before);
  } finally {
    await server.close();
  }
}
