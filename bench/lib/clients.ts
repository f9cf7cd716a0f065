import type { Agent } from 'undici';
import { kyGetter, type RawAnswer } from './raw-loop.js';
import type { Sdk } from './sdk.js';
import type { BenchServer } from './server.js';

type Client = InstanceType<Sdk['HashScanClient']>;

/** The batch contenders' clients: the SDK on its default transport and on the opt-in undici dispatcher, cache off. */
export interface BatchClients {
  readonly fetchClient: Client;
  readonly dispatcherClient: Client;
  /** The same default-transport client from the build in `BENCH_BEFORE_DIST`, when given. */
  readonly beforeClient: Client | undefined;
  /** The same `dispatcher` client from the build in `BENCH_BEFORE_DIST` (its own agent), when given. */
  readonly beforeDispatcherClient: Client | undefined;
  /** The careful loop's request written with ky (one instance, same time-out). */
  readonly kyGet: (url: string) => Promise<RawAnswer>;
  /** The floor: `undici.request` on its own default-settings agent, for the raw loop. */
  readonly undiciGet: (url: string) => Promise<RawAnswer>;
  close(): Promise<void>;
}

/**
 * Loads undici 7 (dev dependency). Loading it installs its own agent as the
 * global dispatcher unless one is set, which would put global `fetch` (SDK and
 * raw loop) on undici 7 instead of Node's bundled undici. A first `fetch`
 * makes Node install its default agent, which the benchmarks then keep.
 */
export async function batchClients(sdk: Sdk, server: BenchServer, before?: Sdk): Promise<BatchClients> {
  await (await fetch('data:,')).text();
  const undici = await import('undici');
  const agents: Agent[] = [new undici.Agent(), new undici.Agent(), new undici.Agent()];
  const [sdkAgent, floorAgent, beforeAgent] = agents as [Agent, Agent, Agent];
  const options = { baseUrl: server.url, apiKey: server.apiKey, cache: false } as const;
  return {
    fetchClient: new sdk.HashScanClient(options),
    dispatcherClient: new sdk.HashScanClient({ ...options, dispatcher: sdkAgent }),
    beforeClient: before === undefined ? undefined : new before.HashScanClient(options),
    beforeDispatcherClient:
      before === undefined ? undefined : new before.HashScanClient({ ...options, dispatcher: beforeAgent }),
    kyGet: kyGetter(),
    undiciGet: async (url) => {
      const res = await undici.request(url, { dispatcher: floorAgent });
      return { status: res.statusCode, text: await res.body.text() };
    },
    close: async () => {
      await Promise.all(agents.map((agent) => agent.close()));
    },
  };
}
