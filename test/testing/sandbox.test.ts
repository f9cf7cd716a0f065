import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EICAR_RECORD, SANDBOX_ACCOUNTS, SANDBOX_FAULT_HASHES } from '../../src/doubles/defaults.js';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';
import { SmsClient } from '../../src/sms/sms-client.js';

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
    // One base URL for both, as the specs lay them out: SMS at `/`, the lookup at `/hash_scan`.
    expect(sandbox.hashScanUrl).toBe(sandbox.url);
    expect(sandbox.smsUrl).toBe(sandbox.url);
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
      ['hashscan', '/hash_scan'],
      ['sms', '/'],
    ]);
    expect(sandbox.messages).toHaveLength(1);
  });

  it('keeps serving the prefixed addresses of earlier versions', async () => {
    sandbox = await startSandbox();
    const scanner = new HashScanClient({ baseUrl: `${sandbox.url}/hashscan`, apiKey: sandbox.apiKey, retry: false });
    await expect(scanner.scan(EICAR_RECORD.md5)).resolves.toMatchObject({ verdict: 'malicious' });
    for (const baseUrl of [`${sandbox.url}/sms`, `${sandbox.url}/sms/`]) {
      const sms = new SmsClient({ baseUrl, ...SANDBOX_ACCOUNTS.member, retry: false });
      await sms.send({ phoneNumbers: '13800000000', templateCode: 'SMS_100000001', templateParam: { code: '1' } });
    }
    expect(sandbox.requests.map((request) => [request.service, request.path, request.outcome])).toEqual([
      ['hashscan', '/hashscan/hash_scan', 'malicious'],
      ['sms', '/sms/', 'OK'],
      ['sms', '/sms/', 'OK'],
    ]);
  });

  it('answers an unknown path in the error shape of the service the request looks meant for', async () => {
    sandbox = await startSandbox();
    const sms = await fetch(`${sandbox.url}/v1/sms?Action=SendSms`, { method: 'POST' });
    expect(sms.status).toBe(404);
    expect(await sms.json()).toEqual({
      Code: 'InvalidPath.NotFound',
      Message: expect.stringContaining('SMS is at /'),
      RequestId: '',
    });
    const lookup = await fetch(`${sandbox.url}/v2/hash_scan?api_key=k&hash=${'a'.repeat(64)}`);
    expect(lookup.status).toBe(404);
    expect(await lookup.json()).toEqual({ status: 'error', message: expect.stringContaining('/hash_scan') });

    // The SMS client reads the answer as a service refusal: nothing was sent.
    const client = new SmsClient({ baseUrl: `${sandbox.url}/wrong`, ...SANDBOX_ACCOUNTS.member, retry: false });
    await expect(
      client.send({ phoneNumbers: '13800000000', templateCode: 'SMS_100000001', templateParam: { code: '1' } }),
    ).rejects.toMatchObject({ code: 'InvalidPath.NotFound', outcome: 'rejected', requestId: '' });
    expect(sandbox.messages).toEqual([]);
  });

  it('answers unknown paths with 404 and bodies over the limit with 413, in the SMS shape', async () => {
    sandbox = await startSandbox({ maxBodyBytes: 16 });
    expect((await fetch(`${sandbox.url}/elsewhere`)).status).toBe(404);
    const response = await fetch(`${sandbox.smsUrl}/`, { method: 'POST', body: 'x'.repeat(64) });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ Code: 'PayloadTooLarge', RequestId: '' });
    expect(sandbox.requests).toEqual([]);
  });

  it('takes the first configured account as its credentials', async () => {
    const account = { accessKeyId: 'mine', accessKeySecret: 'my-secret', plan: 'free' } as const;
    sandbox = await startSandbox({ sms: { accounts: [account] }, hashScan: { apiKey: 'my-key' } });
    expect(sandbox).toMatchObject({ apiKey: 'my-key', accessKeyId: 'mine', accessKeySecret: 'my-secret' });
  });

  it('cuts the socket for a connection error', async () => {
    sandbox = await startSandbox();
    const url = `${sandbox.url}/hash_scan?api_key=${sandbox.apiKey}&hash=${SANDBOX_FAULT_HASHES['connection-error']}`;
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
    // The 60 s timer of the delayed answer is cleared, not left to fire. Short-lived timers of
    // others (lru-cache's 1 ms purge) may still be pending: wait them out, a 60 s one stays.
    await vi.waitFor(() => expect(activeCount('Timeout')).toBeLessThanOrEqual(timers), { timeout: 3_000 });
  });
});
