import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EICAR_RECORD } from '../../../src/doubles/defaults.js';
import { startSandbox } from '../../../src/sandbox/start-sandbox.js';
import { collect } from '../../helpers/child-output.js';
import { startForwardProxy } from '../../helpers/forward-proxy.js';

/** Node's own fetch follows HTTP(S)_PROXY under NODE_USE_ENV_PROXY=1 from 22.21 and 24.5 on. */
function supportsEnvProxy(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 24 || (major === 24 && minor >= 5) || (major === 22 && minor >= 21);
}

/** Runs the child script and resolves what it printed and its exit code. */
function runChild(env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('env-proxy-child.ts', import.meta.url))],
    {
      // tsx would otherwise cache transforms in the temp dir, which the test run must leave empty.
      env: { ...process.env, TSX_DISABLE_CACHE: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return collect(child).then(({ code, stdout, stderr }) => ({ code, out: stdout, err: stderr }));
}

describe('NODE_USE_ENV_PROXY=1 (the fetch path, no code change)', () => {
  it.runIf(supportsEnvProxy(process.versions.node))(
    `sends through HTTP_PROXY on this Node (${process.versions.node})`,
    async () => {
      const sandbox = await startSandbox();
      const proxy = await startForwardProxy();
      try {
        const run = await runChild({
          NODE_USE_ENV_PROXY: '1',
          HTTP_PROXY: proxy.url,
          HTTPS_PROXY: proxy.url,
          NO_PROXY: '',
          SANDBOX_URL: sandbox.url,
          SANDBOX_API_KEY: sandbox.apiKey,
          HASH: EICAR_RECORD.sha256,
        });
        expect(run.err).not.toMatch(/Error/);
        expect(run).toMatchObject({ code: 0, out: 'malicious' });
        expect([...proxy.tunnels, ...proxy.forwarded]).toHaveLength(1);
        expect(sandbox.requests).toHaveLength(1);
      } finally {
        await proxy.close();
        await sandbox.close();
      }
    },
    30_000,
  );

  it('knows which Node versions have it', () => {
    expect(['20.20.0', '22.20.0', '24.4.1'].map(supportsEnvProxy)).toEqual([false, false, false]);
    expect(['22.21.0', '24.5.0', '25.0.0', '26.1.0'].map(supportsEnvProxy)).toEqual([true, true, true, true]);
  });
});
