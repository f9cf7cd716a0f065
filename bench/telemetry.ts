/**
 * Telemetry benchmark (issue 23): CPU per lookup of `scanMany` (cache off,
 * loopback server) with telemetry off, with the tracing channels
 * subscribed, and with a tracer and meter provider given to the client,
 * rounds interleaved, on the default path and on the opt-in dispatcher.
 * `BENCH_BEFORE_DIST` adds the build of an earlier commit (today's code, no
 * observer seam) as the reference the off case must stay within noise of.
 *
 *   npm run bench:telemetry            # full → bench/results.telemetry.node<major>.json
 *   npm run bench:telemetry -- --quick # smaller → bench/.tmp/results.telemetry.json
 *
 * `@opentelemetry/api` is installed here (a dev dependency): `default` is a
 * client left at its default, the global providers, with none registered
 * (the API's proxy hands out non-recording spans); `off` is `telemetry: false`.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { Agent } from 'undici';
import { BENCH_DIR, NODE_MAJOR, QUICK, SETTINGS } from './lib/config.js';
import { type ContenderFigures, contest, type Lookup } from './lib/contest.js';
import { uniqueHashes } from './lib/hashes.js';
import { machine } from './lib/machine.js';
import { loadBeforeSdk, loadSdk } from './lib/sdk.js';
import { startServer } from './lib/server.js';
import type { Summary } from './lib/stats.js';

/** Spans are batched and dropped: what an exporter costs is the exporter's, not ours. */
const discard: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
};

class QuietReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const { rounds, batch, concurrency } = SETTINGS;
const sdk = await loadSdk();
const before = await loadBeforeSdk();
const server = await startServer();
// A first fetch installs Node's own agent before undici is loaded (see lib/clients.ts).
await (await fetch('data:,')).text();
const agents = [new Agent(), new Agent(), new Agent()] as const;

const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(discard)] });
const reader = new QuietReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const base = { baseUrl: server.url, apiKey: server.apiKey, cache: false } as const;
const providers = { tracerProvider, meterProvider };

const channels = [tracingChannel('hashscan-sms:scan'), tracingChannel('hashscan-sms:send')];
let seen = 0;
const count = () => {
  seen += 1;
};
const handlers = { start: count, end: count, asyncStart: count, asyncEnd: count, error: count };
/** A lookup run with the tracing channels subscribed for its duration. */
const subscribed =
  (lookup: Lookup): Lookup =>
  async (hashes) => {
    for (const channel of channels) channel.subscribe(handlers);
    try {
      return await lookup(hashes);
    } finally {
      for (const channel of channels) channel.unsubscribe(handlers);
    }
  };
const scan =
  (client: InstanceType<typeof sdk.HashScanClient>): Lookup =>
  (hashes) =>
    client.scanMany(hashes, { concurrency });

const contenders: Record<string, Lookup> = {
  off: scan(new sdk.HashScanClient({ ...base, telemetry: false })),
  default: scan(new sdk.HashScanClient(base)),
  channels: subscribed(scan(new sdk.HashScanClient({ ...base, telemetry: false }))),
  provider: scan(new sdk.HashScanClient({ ...base, telemetry: providers })),
  dispatcherOff: scan(new sdk.HashScanClient({ ...base, dispatcher: agents[0], telemetry: false })),
  dispatcherProvider: scan(new sdk.HashScanClient({ ...base, dispatcher: agents[1], telemetry: providers })),
};
if (before !== undefined) {
  contenders.before = scan(new before.HashScanClient(base));
  contenders.dispatcherBefore = scan(new before.HashScanClient({ ...base, dispatcher: agents[2] }));
}

const result = await contest(contenders, {
  rounds,
  warmUp: !QUICK,
  inputs: () => uniqueHashes(batch),
  n: batch,
  before: () => server.reset(),
});
await reader.collect();
const ratios: Record<string, Summary> = {
  defaultCpuOverOff: result.cpu('default', 'off'),
  channelsCpuOverOff: result.cpu('channels', 'off'),
  providerCpuOverOff: result.cpu('provider', 'off'),
  dispatcherProviderCpuOverOff: result.cpu('dispatcherProvider', 'dispatcherOff'),
};
if (before !== undefined) {
  ratios.offCpuOverBefore = result.cpu('off', 'before');
  ratios.defaultCpuOverBefore = result.cpu('default', 'before');
  ratios.dispatcherOffCpuOverBefore = result.cpu('dispatcherOff', 'dispatcherBefore');
}
const report = {
  machine: machine(),
  settings: { rounds, batch, concurrency, before: process.env.BENCH_BEFORE_DIST ?? null },
  channelMessages: seen,
  contenders: result.figures as Record<string, ContenderFigures>,
  ratios,
};
const file = QUICK ? `${BENCH_DIR}.tmp/results.telemetry.json` : `${BENCH_DIR}results.telemetry.node${NODE_MAJOR}.json`;
await mkdir(dirname(file), { recursive: true });
await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);

const row = (name: string, figures: ContenderFigures) =>
  `${name.padEnd(20)} ${String(figures.cpuUs.median).padStart(7)} µs CPU/lookup (${figures.cpuUs.min}–${figures.cpuUs.max})  ${String(figures.perSecond.median).padStart(7)}/s`;
for (const [name, figures] of Object.entries(report.contenders)) console.log(row(name, figures));
for (const [name, summary] of Object.entries(ratios)) {
  console.log(`${name.padEnd(30)} ${summary.median} (${summary.min}–${summary.max})`);
}
console.log(`written ${file}`);
await tracerProvider.shutdown();
await meterProvider.shutdown();
await Promise.all(agents.map((agent) => agent.close()));
await server.close();
