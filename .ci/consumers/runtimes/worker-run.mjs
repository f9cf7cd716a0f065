// Builds worker.mjs the way wrangler does (esbuild: bundled, minified, ESM, the `workerd`/`worker`/
// `browser` conditions, node builtins external only under nodejs_compat) and runs it in workerd
// through Miniflare, once per flag set given: `node worker-run.mjs compat` / `node worker-run.mjs plain`.
// The Worker's outbound requests go to the sandbox (Node side) or, for the catalogue, to its answers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { startSandbox } from 'hashscan-sms/sandbox';
import { Miniflare } from 'miniflare';
import { answerFor, EXPECTED } from './catalogue.mjs';

export const COMPATIBILITY_DATE = '2026-04-01';
const builtins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

/** wrangler's esbuild options (bundle.ts): what a `wrangler deploy --minify` uploads. */
export async function bundleWorker(entry, { compat, outfile, alias }) {
  const result = await build({
    entryPoints: [entry],
    alias,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    minify: true,
    keepNames: true,
    external: compat ? builtins : [],
    write: outfile !== undefined,
    outfile,
    metafile: true,
    logLevel: 'silent',
  });
  return result;
}

/**
 * A Miniflare that leaves no temporary folder behind: Miniflare removes its own only when the
 * process exits. Its folder is made under a parent of its own (Miniflare names it from
 * `os.tmpdir()` in its constructor), which `dispose()` removes: never a folder of another
 * Miniflare running at the same time, in this process or another.
 */
export function disposableMiniflare(options) {
  const parent = mkdtempSync(join(tmpdir(), 'hashscan-miniflare-'));
  const tmp = process.env.TMPDIR;
  process.env.TMPDIR = parent;
  let mf;
  try {
    mf = new Miniflare(options);
  } finally {
    if (tmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmp;
  }
  return {
    mf,
    async dispose() {
      await mf.dispose();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/** Runs a bundled worker.mjs in workerd: what `/smoke` and `/catalogue` answered. */
export async function checkWorker(script, { compat }) {
  const sandbox = await startSandbox();
  const { mf, dispose } = disposableMiniflare({
    modules: true,
    script,
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: compat ? ['nodejs_compat'] : [],
    bindings: {
      HASHSCAN_API_KEY: sandbox.apiKey,
      SMS_ACCESS_KEY_ID: sandbox.accessKeyId,
      SMS_ACCESS_KEY_SECRET: sandbox.accessKeySecret,
    },
    outboundService: async (request) => {
      const url = new URL(request.url);
      if (url.host === 'catalogue.test') {
        const answer = answerFor(request.url);
        return new Response(answer.body, { status: answer.status, headers: { 'content-type': answer.type } });
      }
      const base = url.host === 'sms.test' ? sandbox.smsUrl : sandbox.hashScanUrl;
      const body = request.method === 'GET' ? undefined : await request.text();
      return fetch(new URL(`${url.pathname}${url.search}`, base), {
        method: request.method,
        headers: request.headers,
        body,
      });
    },
  });
  try {
    const smoke = await (await mf.dispatchFetch('http://worker.test/smoke')).json();
    const catalogue = await (await mf.dispatchFetch('http://worker.test/catalogue')).json();
    return { smoke, catalogue };
  } finally {
    await dispose();
    await sandbox.close();
  }
}

async function run(compat) {
  const built = await bundleWorker('worker.mjs', { compat });
  const { smoke, catalogue } = await checkWorker(built.outputFiles[0].text, { compat });
  assert.deepEqual(smoke, { eicar: 'block', sms: 'OK' });
  assert.deepEqual(catalogue, EXPECTED);
  console.log(`worker smoke ok: workerd via miniflare, ${compat ? 'nodejs_compat' : 'no nodejs_compat'}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const modes = process.argv.slice(2);
  for (const mode of modes.length > 0 ? modes : ['compat']) await run(mode === 'compat');
}
