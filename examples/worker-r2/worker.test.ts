import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker, COMPATIBILITY_DATE, disposableMiniflare } from '../../.ci/consumers/runtimes/worker-run.mjs';
import { recordFor, type Sandbox, startSandbox } from '../../src/sandbox/index.js';

const path = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
const MALWARE = 'pretend this is malware';
const FLAKY = 'the service answers 503 for this one';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

let sandbox: Sandbox;
let mf: Miniflare;
let dispose: (() => Promise<void>) | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({
    hashScan: { records: [recordFor(MALWARE)], faults: { [sha256(FLAKY)]: 'http-status' } },
  });
  const built = await bundleWorker(path('./worker.ts'), {
    compat: false,
    alias: { 'hashscan-sms': path('../../src/index.ts') },
  });
  ({ mf, dispose } = disposableMiniflare({
    modules: true,
    script: built.outputFiles[0]?.text ?? '',
    compatibilityDate: COMPATIBILITY_DATE,
    r2Buckets: ['UPLOADS'],
    bindings: { HASHSCAN_API_KEY: sandbox.apiKey, HASHSCAN_BASE_URL: 'https://hashscan.test' },
    // The Worker's requests to the lookup service go to the sandbox.
    outboundService: (request: Request) => {
      const url = new URL(request.url);
      return fetch(new URL(`${url.pathname}${url.search}`, sandbox.hashScanUrl));
    },
  }));
}, 60_000);

afterAll(async () => {
  await dispose?.();
  await sandbox?.close();
});

/** The R2 bucket as the test reads it (without @cloudflare/workers-types). */
const uploads = async () =>
  (await mf.getR2Bucket('UPLOADS')) as unknown as {
    get(key: string): Promise<{ text(): Promise<string> } | null>;
    head(key: string): Promise<unknown>;
  };

const put = (name: string, body: string) =>
  mf.dispatchFetch(`http://worker.test/files/${name}`, { method: 'PUT', body });

describe('examples/worker-r2: a Worker checks an upload before writing it to R2 (workerd, no nodejs_compat)', {
  timeout: 60_000,
}, () => {
  it('stores a clean upload, with its SHA-256', async () => {
    const response = await put('clean.txt', 'hello');
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ decision: 'allow', sha256: sha256('hello') });
    const bucket = await uploads();
    expect(await (await bucket.get('clean.txt'))?.text()).toBe('hello');
  });

  it('refuses a flagged upload (422), one without a trustworthy answer (503) and one too large (413), storing none', async () => {
    expect((await put('bad.bin', MALWARE)).status).toBe(422);
    expect((await put('flaky.bin', FLAKY)).status).toBe(503);
    expect((await put('big.bin', 'x'.repeat(1024 * 1024 + 1))).status).toBe(413);
    const bucket = await uploads();
    for (const name of ['bad.bin', 'flaky.bin', 'big.bin']) expect(await bucket.head(name)).toBeNull();
  });
});
