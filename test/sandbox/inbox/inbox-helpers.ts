import { request } from 'node:http';
import { afterEach } from 'vitest';
import { SmsClient } from '../../../src/index.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../../src/sandbox/index.js';

/** An `SmsClient` signed for the sandbox (or with `secret`, to be refused), retrying nothing. */
export function smsClient(sandbox: Sandbox, secret = sandbox.accessKeySecret): SmsClient {
  return new SmsClient({
    accessKeyId: sandbox.accessKeyId,
    accessKeySecret: secret,
    baseUrl: sandbox.smsUrl,
    retry: { retries: 0 },
  });
}

/** A GET of the inbox API, as JSON (or `undefined` for an empty body). */
export async function inboxGet(
  sandbox: Sandbox,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${sandbox.inboxUrl}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** A raw request with a chosen `Host` header (which `fetch` does not let a caller set), and an optional body. */
export function rawRequest(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Each test's sandbox, closed after it: `start(options)` starts it. */
export function useSandbox(): (options?: SandboxOptions) => Promise<Sandbox> {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });
  return async (options = {}) => {
    sandbox = await startSandbox(options);
    return sandbox;
  };
}
