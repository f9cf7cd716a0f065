/**
 * A send's budget starts in `send()`, before the sending limits' check (one
 * Redis script with `fleet`): a slow Redis never adds its own time-out to
 * the caller's `totalTimeoutMs`, the caller's abort ends the check at once,
 * and the request gets only what is left (issue 28: no wait beyond the
 * caller's budget). A real Redis behind a delaying TCP proxy.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SmsClient } from '../../src/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/start-sandbox.js';
import { freshPrefix } from '../fleet/fleet-helpers.js';
import { type DelayProxy, startDelayProxy } from '../helpers/delay-proxy.js';
import { describeWithRedis } from '../helpers/redis.js';

/** Far longer than the budgets below: only the budget or the signal can end the check in time. */
const FLEET_TIMEOUT_MS = 5_000;
const SLOW_MS = 3_000;

describeWithRedis('the SMS limits check runs within the send budget', (redisUrl) => {
  let sandbox: Sandbox;
  let proxy: DelayProxy;
  const clients: Redis[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox();
    proxy = await startDelayProxy(Number(new URL(redisUrl).port), 0);
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await proxy.close();
    await sandbox.close();
  });

  async function client(options: { fetch?: typeof fetch; totalTimeoutMs?: number } = {}) {
    const redis = new Redis(`redis://127.0.0.1:${proxy.port}`, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    redis.on('error', () => {});
    clients.push(redis);
    await new Promise((resolve) => redis.once('ready', resolve));
    const sms = new SmsClient({
      accessKeyId: sandbox.accessKeyId,
      accessKeySecret: sandbox.accessKeySecret,
      baseUrl: sandbox.smsUrl,
      retry: { retries: 0 },
      ...options,
      fleet: { redis, prefix: freshPrefix(), timeoutMs: FLEET_TIMEOUT_MS },
      limits: { perRecipient: { perHour: 3 } },
    });
    const request = {
      phoneNumbers: '13500000009',
      templateCode: 'SMS_100000001',
      signName: 'Sandbox',
      templateParam: { code: '123456' },
    };
    return { sms, request };
  }

  const timed = async (work: Promise<unknown>) => {
    const started = performance.now();
    const outcome = await work.catch((error: unknown) => error);
    return { outcome, ms: performance.now() - started };
  };

  it('a per-call totalTimeoutMs ends a slow check: TIMEOUT, not_sent, nothing sent', async () => {
    const { sms, request } = await client();
    const before = sandbox.messages.length;
    proxy.setDelay(SLOW_MS);
    try {
      const { outcome, ms } = await timed(sms.send(request, { totalTimeoutMs: 500 }));
      expect(outcome).toMatchObject({ code: 'TIMEOUT', outcome: 'not_sent' });
      // Generous against a loaded machine; the slow Redis alone would take 3 s.
      expect(ms).toBeLessThan(500 + 1_000);
      expect(sandbox.messages.length).toBe(before);
      // The take may still run in Redis: in doubt, a store failure, never "not taken".
      expect(sms.stats().limits).toMatchObject({ allowed: 0, storeFailures: 1 });
    } finally {
      proxy.setDelay(0);
    }
  }, 20_000);

  it("the caller's abort ends a slow check at once: ABORTED, not_sent", async () => {
    const { sms, request } = await client();
    proxy.setDelay(SLOW_MS);
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const { outcome, ms } = await timed(sms.send(request, { signal: controller.signal }));
      expect(outcome).toMatchObject({ code: 'ABORTED', outcome: 'not_sent' });
      expect(ms).toBeLessThan(200 + 1_000);
    } finally {
      proxy.setDelay(0);
    }
  }, 20_000);

  it("the client's totalTimeoutMs covers the check and the request: the request gets only what is left", async () => {
    // A service that never answers: only the budget ends the request.
    const hang: typeof fetch = (_input, init) =>
      new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const { sms, request } = await client({ fetch: hang, totalTimeoutMs: 2_500 });
    proxy.setDelay(1_500);
    try {
      const { outcome, ms } = await timed(sms.send(request));
      expect(outcome).toMatchObject({ code: 'TIMEOUT' });
      // The check took about 1.5 s of the 2.5 s: with a fresh budget for the request it would end near 4 s.
      expect(ms).toBeLessThan(2_500 + 1_000);
    } finally {
      proxy.setDelay(0);
    }
  }, 20_000);
});
