/**
 * Cold start for serverless and the edge (issue 30).
 *   npm run build && node --import tsx bench/cold-start.ts [--samples N]
 *
 * 1. Cold `import('hashscan-sms')` on this Node: N fresh processes, each
 *    timed from spawn to exit (wall, `performance.now()` in this process),
 *    interleaved with a baseline `node -e 0`; the import's cost is the
 *    difference of the medians (and the in-process `import()` time is
 *    printed beside it). Targets: ≤ 40 ms.
 *    Then the first answer: import, construct a `HashScanClient` and scan one
 *    hash against a loopback server, against what a careful user would write
 *    (one `fetch` and `JSON.parse`), interleaved: ky is loaded by the first
 *    request, and on Node a first `fetch` loads the runtime's fetch, so this
 *    row shows whether the import's saving merely moved to the first request.
 * 2. Worker bundles, built as wrangler builds them (esbuild, bundled,
 *    minified, the `workerd`/`worker`/`browser` conditions, no
 *    `nodejs_compat`): a Worker using only `HashScanClient`, and one using
 *    both clients, minified and gzip sizes. Targets: ≤ 80 / ≤ 120 KiB gzip.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleWorker } from '../.ci/consumers/runtimes/worker-run.mjs';
import { summarize } from './lib/stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = `${ROOT}dist/index.js`;
const samplesArg = process.argv.indexOf('--samples');
const SAMPLES = samplesArg === -1 ? 10 : Number(process.argv[samplesArg + 1]);

/** Wall time of one fresh `node …` from spawn to exit, and what it printed. */
function run(args: readonly string[]): Promise<{ ms: number; out: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve({ ms: performance.now() - started, out }) : reject(new Error(`exit ${code}`)),
    );
  });
}

const median = (values: readonly number[]): number => summarize(values, 6).median;
const range = (values: readonly number[]): string => {
  const { min, max } = summarize(values, 6);
  return `${min.toFixed(1)}–${max.toFixed(1)}`;
};

const IMPORT = [
  '--input-type=module',
  '-e',
  `const t = performance.now(); await import(${JSON.stringify(DIST)}); console.log(performance.now() - t);`,
];

async function coldImport(): Promise<void> {
  await run(IMPORT); // the OS file cache, filled for every sample alike
  const baseline: number[] = [];
  const withImport: number[] = [];
  const inProcess: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const order = i % 2 === 0 ? ['base', 'import'] : ['import', 'base'];
    for (const which of order) {
      if (which === 'base') baseline.push((await run(['-e', '0'])).ms);
      else {
        const { ms, out } = await run(IMPORT);
        withImport.push(ms);
        inProcess.push(Number(out.trim()));
      }
    }
  }
  console.log(`cold import('hashscan-sms'), node ${process.version}, ${SAMPLES} fresh processes, interleaved:`);
  console.log(`  node -e 0                 median ${median(baseline).toFixed(1)} ms (${range(baseline)})`);
  console.log(`  node -e import(…)         median ${median(withImport).toFixed(1)} ms (${range(withImport)})`);
  console.log(`  difference of medians     ${(median(withImport) - median(baseline)).toFixed(1)} ms`);
  console.log(`  import() in the process   median ${median(inProcess).toFixed(1)} ms (${range(inProcess)})`);
}

const HASH = '0'.repeat(64);
type FirstRun = 'SDK' | 'SDK, telemetry: false' | 'fetch';
const sdkRun = (baseUrl: string, telemetry: string): string[] => [
  '--input-type=module',
  '-e',
  `const t0 = performance.now();
const { HashScanClient } = await import(${JSON.stringify(DIST)});
const t1 = performance.now();
const client = new HashScanClient({ apiKey: 'k', baseUrl: ${JSON.stringify(baseUrl)}, cache: false${telemetry} });
const t2 = performance.now();
const outcome = await client.scanOutcome('${HASH}');
if (outcome.verdict !== 'not_detected') throw new Error(outcome.verdict);
const t3 = performance.now();
console.log(JSON.stringify([t3 - t0, t1 - t0, t2 - t1, t3 - t2]));`,
];
/** The client as a user writes it; `telemetry: false` shows what loading `@opentelemetry/api` (installed here) adds. */
const firstAnswer = (baseUrl: string): Record<FirstRun, string[]> => ({
  SDK: sdkRun(baseUrl, ''),
  'SDK, telemetry: false': sdkRun(baseUrl, ', telemetry: false'),
  fetch: [
    '--input-type=module',
    '-e',
    `const t = performance.now();
const response = await fetch(${JSON.stringify(`${baseUrl}/hash_scan?api_key=k&hash=${HASH}`)});
const body = JSON.parse(await response.text());
if (response.status !== 200 || body.is_virus !== false) throw new Error('unexpected answer');
console.log(JSON.stringify([performance.now() - t]));`,
  ],
});

const FIRST_ROWS = [
  'import, construct, scanOutcome',
  '  of which import()',
  '  of which the constructor',
  '  of which the first scan (ky loaded here)',
];
const RUNS: readonly FirstRun[] = ['SDK', 'SDK, telemetry: false', 'fetch'];

async function firstScan(): Promise<void> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ status: 'success', is_virus: false, message: 'No active service detected this file' }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const commands = firstAnswer(`http://127.0.0.1:${port}`);
  const times = new Map(RUNS.map((which) => [which, FIRST_ROWS.map((): number[] => [])]));
  try {
    await run(commands.SDK);
    for (let i = 0; i < SAMPLES; i++) {
      const order = i % 2 === 0 ? RUNS : [...RUNS].reverse();
      for (const which of order) {
        const printed = JSON.parse((await run(commands[which])).out) as number[];
        for (const [row, ms] of printed.entries()) times.get(which)?.[row]?.push(ms);
      }
    }
  } finally {
    server.close();
  }
  console.log(`first answer in a fresh process (import, then one lookup on loopback), ${SAMPLES} interleaved:`);
  for (const which of RUNS) {
    const rows = times.get(which) ?? [];
    if (which === 'fetch') {
      const only = rows[0] ?? [];
      console.log(
        `${'  careful user: one fetch, JSON.parse'.padEnd(62)}median ${median(only).toFixed(1)} ms (${range(only)})`,
      );
      continue;
    }
    console.log(`  HashScanClient (${which === 'SDK' ? 'defaults' : 'telemetry: false'}):`);
    for (const [row, values] of rows.entries()) {
      console.log(
        `${`    ${FIRST_ROWS[row] as string}`.padEnd(62)}median ${median(values).toFixed(1)} ms (${range(values)})`,
      );
    }
  }
}

const WORKERS = {
  'HashScanClient only': `import { HashScanClient } from 'hashscan-sms';
export default { async fetch(request, env) {
  const client = new HashScanClient({ baseUrl: env.BASE_URL, apiKey: env.API_KEY });
  return Response.json(await client.scan(new URL(request.url).searchParams.get('hash')));
} };`,
  'both clients': `import { HashScanClient, SmsClient } from 'hashscan-sms';
export default { async fetch(request, env) {
  const client = new HashScanClient({ baseUrl: env.BASE_URL, apiKey: env.API_KEY });
  const sms = new SmsClient({ baseUrl: env.SMS_URL, accessKeyId: env.ID, accessKeySecret: env.SECRET });
  const result = await client.scan(new URL(request.url).searchParams.get('hash'));
  return Response.json({ result, sent: await sms.send({ phoneNumbers: '1', templateCode: 'T', templateParam: {} }) });
} };`,
};

async function workerBundles(): Promise<void> {
  const dir = `${ROOT}bench/.tmp/cold-start`;
  // The package installed by name (a link to this repository), so its `sideEffects: false` counts as in a user's build.
  rmSync(dir, { recursive: true, force: true }); // what an interrupted run left
  mkdirSync(`${dir}/node_modules`, { recursive: true });
  symlinkSync(ROOT, `${dir}/node_modules/hashscan-sms`);
  console.log('Worker bundles (esbuild as wrangler runs it: bundled, minified, no nodejs_compat):');
  try {
    for (const [name, source] of Object.entries(WORKERS)) {
      const entry = `${dir}/${name.replace(/\W+/g, '-')}.mjs`;
      writeFileSync(entry, source);
      const built = await bundleWorker(entry, { compat: false });
      const bytes = built.outputFiles[0]?.contents ?? new Uint8Array();
      const inputs = Object.entries(built.metafile.outputs)[0]?.[1].inputs ?? {};
      const byPackage = new Map<string, number>();
      for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
        const pkg =
          /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(
            file.replace(/^.*bench\/\.tmp\/cold-start\/node_modules\/hashscan-sms\//, ''),
          )?.[1] ?? 'hashscan-sms';
        byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + bytesInOutput);
      }
      const parts = [...byPackage]
        .sort((a, b) => b[1] - a[1])
        .map(([pkg, size]) => `${pkg} ${(size / 1024).toFixed(0)}`);
      console.log(
        `  ${name.padEnd(20)} ${(bytes.length / 1024).toFixed(1)} KiB minified, ${(gzipSync(bytes).length / 1024).toFixed(1)} KiB gzip  (minified KiB: ${parts.join(', ')})`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!process.argv.includes('--bundles-only')) {
  await coldImport();
  await firstScan();
}
await workerBundles();
