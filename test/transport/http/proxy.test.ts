import { EnvHttpProxyAgent, getGlobalDispatcher, ProxyAgent, setGlobalDispatcher } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EICAR_RECORD, SANDBOX_ACCOUNTS } from '../../../src/doubles/defaults.js';
import { HashScanClient } from '../../../src/hashscan/hashscan-client.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/start-sandbox.js';
import { SmsClient } from '../../../src/sms/sms-client.js';
import { type ForwardProxy, startForwardProxy } from '../../helpers/forward-proxy.js';

// The README's recipes, run through a real loopback proxy in front of the sandbox.
let sandbox: Sandbox;
let proxy: ForwardProxy;
beforeEach(async () => {
  sandbox = await startSandbox();
  proxy = await startForwardProxy();
});
afterEach(async () => {
  await proxy.close();
  await sandbox.close();
});

const SEND = { phoneNumbers: '13800000000', templateCode: 'SMS_100000001', templateParam: { code: '1' } };
const sandboxHost = (): string => new URL(sandbox.url).host;

describe('sending through a proxy', () => {
  it('dispatcher path: an undici ProxyAgent as `dispatcher` carries both clients', async () => {
    const agent = new ProxyAgent(proxy.url);
    try {
      const scanner = new HashScanClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, dispatcher: agent });
      await expect(scanner.scan(EICAR_RECORD.sha256)).resolves.toMatchObject({ verdict: 'malicious' });
      const sms = new SmsClient({ baseUrl: sandbox.url, ...SANDBOX_ACCOUNTS.member, dispatcher: agent });
      await expect(sms.send(SEND)).resolves.toMatchObject({ code: 'OK' });
    } finally {
      await agent.close();
    }
    // undici tunnels through CONNECT (for https the proxy sees only host:port, never the query string).
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(proxy.tunnels.every((target) => target === sandboxHost())).toBe(true);
    expect(sandbox.requests.map((request) => request.path)).toEqual(['/hash_scan', '/']);
  });

  it('dispatcher path: EnvHttpProxyAgent reads the proxy from HTTP(S)_PROXY-style settings', async () => {
    const agent = new EnvHttpProxyAgent({ httpProxy: proxy.url, httpsProxy: proxy.url, noProxy: '' });
    try {
      const scanner = new HashScanClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, dispatcher: agent });
      await expect(scanner.scan(EICAR_RECORD.md5)).resolves.toMatchObject({ verdict: 'malicious' });
    } finally {
      await agent.close();
    }
    expect(proxy.tunnels.length + proxy.forwarded.length).toBeGreaterThan(0);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('fetch path (the default, ky over global fetch): setGlobalDispatcher(new ProxyAgent(…))', async () => {
    const previous = getGlobalDispatcher();
    const agent = new ProxyAgent(proxy.url);
    setGlobalDispatcher(agent);
    try {
      const scanner = new HashScanClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, retry: false });
      await expect(scanner.scan(EICAR_RECORD.sha1)).resolves.toMatchObject({ verdict: 'malicious' });
      const sms = new SmsClient({ baseUrl: sandbox.url, ...SANDBOX_ACCOUNTS.member, retry: false });
      await expect(sms.send(SEND)).resolves.toMatchObject({ code: 'OK' });
    } finally {
      setGlobalDispatcher(previous);
      await agent.close();
    }
    expect(proxy.tunnels.length + proxy.forwarded.length).toBeGreaterThan(0);
    expect(sandbox.requests.map((request) => request.path)).toEqual(['/hash_scan', '/']);
  });

  it('without a proxy setting nothing goes through the proxy (the tests above are not vacuous)', async () => {
    const scanner = new HashScanClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, retry: false });
    await scanner.scan(EICAR_RECORD.sha256);
    expect(proxy.tunnels).toEqual([]);
    expect(proxy.forwarded).toEqual([]);
  });
});
