/**
 * The README's first screen (first-steps.ts, kept identical to its README copy by test/sandbox/readme.test.ts),
 * run as written against the sandbox, configured through the environment variables it names.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
  vi.stubEnv('HASHSCAN_API_KEY', sandbox.apiKey);
  vi.stubEnv('HASHSCAN_BASE_URL', sandbox.hashScanUrl);
  vi.stubEnv('SMS_ACCESS_KEY_ID', sandbox.accessKeyId);
  vi.stubEnv('SMS_ACCESS_KEY_SECRET', sandbox.accessKeySecret);
  vi.stubEnv('SMS_BASE_URL', sandbox.smsUrl);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await sandbox.close();
});

it('looks up the EICAR digest (block) and sends one SMS', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import('./first-steps.js');
    expect(log.mock.calls[0]).toEqual(['malicious', 'block']);
    expect(log.mock.calls[1]?.[0]).toBe('sent');
    expect(log.mock.calls[1]?.[1]).toEqual(expect.any(String));
    expect(sandbox.requests.map((request) => request.service)).toEqual(['hashscan', 'sms']);
  } finally {
    log.mockRestore();
  }
});
