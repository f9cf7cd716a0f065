import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { SmsClient } from '../../src/sms/sms-client.js';
import { EICAR_RECORD, SANDBOX_ACCOUNTS, SANDBOX_FAULT_HASHES } from '../../src/testing/defaults.js';
import { type Sandbox, startSandbox } from '../../src/testing/sandbox.js';

const activeCount = (type: string): number => process.getActiveResourcesInfo().filter((name) => name === type).length;

describe('startSandbox', () => {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('serves both services on one loopback port with its own credentials', async () => {
    sandbox = await startSandbox();
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.hashScanUrl).toBe(`${sandbox.url}/hashscan`);
    expect(sandbox.smsUrl).toBe(`${sandbox.url}/sms`);
    expect(sandbox).toMatchObject({
      apiKey: 'sandbox-api-key',
      accessKeyId: SANDBOX_ACCOUNTS.member.accessKeyId,
      accessKeySecret: SANDBOX_ACCOUNTS.member.accessKeySecret,
    });

    const scanner = new HashScanClient({ baseUrl: sandbox.hashScanUrl, apiKey: sandbox.apiKey, retry: false });
    await expect(scanner.scan(EICAR_RECORD.sha256)).resolves.toMatchObject({ verdict: 'malicious' });
    const sms = new SmsClient({
      baseUrl: sandbox.smsUrl,
      accessKeyId: sandbox.accessKeyId,
      accessKeySecret: sandbox.accessKeySecret,
      retry: false,
    });
    await sms.send({ phoneNumbers: '13800000000', templateCode: 'SMS_100000001', templateParam: { code: '1' } });
    expect(sandbox.requests.map((request) => [request.service, request.path])).toEqual([
      ['hashscan', '/hashscan/hash_scan'],
      ['sms', '/sms/'],
    ]);
    expect(sandbox.messages).toHaveLength(1);
  });

  it('answers unknown paths with 404 and bodies over the limit with 413', async () => {
    sandbox = await startSandbox({ maxBodyBytes: 16 });
    expect((await fetch(`${sandbox.url}/elsewhere`)).status).toBe(404);
    const response = await fetch(`${sandbox.smsUrl}/`, { method: 'POST', body: 'x'.repeat(64) });
    expect(response.status).toBe(413);
    expect(sandbox.requests).toEqual([]);
  });

  it('takes the first configured account as its credentials', async () => {
    const account = { accessKeyId: 'mine', accessKeySecret: 'my-secret', plan: 'free' } as const;
    sandbox = await startSandbox({ sms: { accounts: [account] }, hashScan: { apiKey: 'my-key' } });
    expect(sandbox).toMatchObject({ apiKey: 'my-key', accessKeyId: 'mine', accessKeySecret: 'my-secret' });
  });

  it('cuts the socket for a connection error', async () => {
    sandbox = await startSandbox();
    const url = `${sandbox.hashScanUrl}/hash_scan?api_key=${sandbox.apiKey}&hash=${SANDBOX_FAULT_HASHES['connection-error']}`;
    await expect(fetch(url)).rejects.toThrow(TypeError);
  });

  it('sends the status and half the announced body for a partial body', async () => {
    sandbox = await startSandbox();
    const url = `${sandbox.hashScanUrl}/hash_scan?api_key=${sandbox.apiKey}&hash=${SANDBOX_FAULT_HASHES['partial-body']}`;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const announced = Number(response.headers.get('content-length'));
    expect(announced).toBeGreaterThan(0);
    await expect(response.text()).rejects.toThrow();
  });

  it('close() destroys a stalled socket and leaves no server or socket open', async () => {
    // This file is the only user of TCP in its worker, so every server and socket left is ours.
    sandbox = await startSandbox();
    const { hashScanUrl, apiKey } = sandbox;
    const stalled = new Promise<string>((resolve) => {
      const url = `${hashScanUrl}/hash_scan?api_key=${apiKey}&hash=${SANDBOX_FAULT_HASHES.timeout}`;
      httpRequest(url, (response) => resolve(`answered ${response.statusCode}`))
        .on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
        .end();
    });
    await vi.waitFor(() => expect(sandbox?.requests).toHaveLength(1));
    expect(activeCount('TCPServerWrap')).toBeGreaterThan(0);

    await sandbox.close();
    expect(await stalled).toBe('ECONNRESET');
    await sandbox.close(); // idempotent
    await vi.waitFor(() => expect(activeCount('TCPServerWrap')).toBe(0));
    await vi.waitFor(() => expect(activeCount('TCPSocketWrap')).toBe(0));
    await expect(fetch(`${hashScanUrl}/hash_scan`)).rejects.toThrow(TypeError);
  });

  it('close() also ends a delayed answer and the HashScanClient gives up on a held socket', async () => {
    const timers = activeCount('Timeout');
    sandbox = await startSandbox({
      hashScan: { faults: { [EICAR_RECORD.md5]: { kind: 'timeout', delayMs: 60_000 } } },
    });
    const scanner = new HashScanClient({
      baseUrl: sandbox.hashScanUrl,
      apiKey: sandbox.apiKey,
      retry: false,
      timeoutMs: 50,
    });
    await expect(scanner.scan(EICAR_RECORD.md5)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await sandbox.close();
    // The 60 s timer of the delayed answer is cleared, not left to fire.
    expect(process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length).toBe(timers);
  });
});
