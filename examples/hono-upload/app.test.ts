import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker, COMPATIBILITY_DATE, disposableMiniflare } from '../../.ci/consumers/runtimes/worker-run.mjs';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { collect } from '../../test/helpers/child-output.js';
import { RUNTIMES } from '../../test/helpers/runtimes.js';

const path = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
const alias = { 'hashscan-sms': path('../../src/index.ts') };
const EXPECTED = {
  clean: 201,
  eicar: 422,
  tooLarge: 413,
  otp: 200,
  otpSent: true,
  resend: 429,
  resendRetryAfter: '30',
  wrongCode: 400,
};

let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  dir = await mkdtemp(join(tmpdir(), 'hono-upload-'));
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

const config = (hashScanUrl: string, smsUrl: string) => ({
  hashScan: { baseUrl: hashScanUrl, apiKey: sandbox.apiKey },
  sms: { baseUrl: smsUrl, accessKeyId: sandbox.accessKeyId, accessKeySecret: sandbox.accessKeySecret },
  templateCode: 'SMS_100000001',
});

describe('examples/hono-upload: the same Hono app (upload check + one-time code)', { timeout: 60_000 }, () => {
  it.each(RUNTIMES)('answers alike under $name', async (runtime) => {
    const built = await bundleWorker(path('./run.ts'), { compat: false, alias });
    const script = join(dir, `run-${runtime.name}.mjs`);
    await writeFile(script, built.outputFiles[0]?.text ?? '');
    const args = runtime.name === 'deno' ? ['run', '--allow-net', '--allow-read'] : [];
    const child = spawn(runtime.bin, [...args, script, JSON.stringify(config(sandbox.hashScanUrl, sandbox.smsUrl))], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const run = await collect(child);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual(EXPECTED);
  });

  it('answers alike in a Worker (workerd, no nodejs_compat)', async () => {
    const built = await bundleWorker(path('./check.ts'), { compat: false, alias });
    const { mf, dispose } = disposableMiniflare({
      modules: true,
      script: built.outputFiles[0]?.text ?? '',
      compatibilityDate: COMPATIBILITY_DATE,
      bindings: { CONFIG: JSON.stringify(config('https://hashscan.test', 'https://sms.test')) },
      outboundService: async (request: Request) => {
        const url = new URL(request.url);
        const base = url.host === 'sms.test' ? sandbox.smsUrl : sandbox.hashScanUrl;
        const body = request.method === 'GET' ? {} : { body: await request.text() };
        return fetch(new URL(`${url.pathname}${url.search}`, base), {
          method: request.method,
          headers: request.headers,
          ...body,
        });
      },
    });
    try {
      expect(await (await mf.dispatchFetch('http://worker.test/')).json()).toEqual(EXPECTED);
    } finally {
      await dispose();
    }
  });
});
