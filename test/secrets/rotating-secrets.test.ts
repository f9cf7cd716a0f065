import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import type { Logger } from '../../src/observe/logger.js';
import { SmsClient, type SmsCredentials } from '../../src/sms/index.js';
import { verifySignature } from '../../src/sms/signing/index.js';
import { useMswServer } from '../helpers/msw.js';
import { BASE_URL, REQUEST, readRequest } from '../sms/sms-service.js';

const server = useMswServer();
const NOW = new Date('2031-01-01T00:00:00Z').getTime();

afterEach(() => {
  vi.useRealTimers();
});

const GENERATIONS: readonly SmsCredentials[] = [
  {
    accessKeyId: 'LTAI-ROTATING-ID-ONE',
    accessKeySecret: 'ROTATING-SECRET-ONE-aaa',
    securityToken: 'STS-TOKEN-ONE-zzz',
  },
  {
    accessKeyId: 'LTAI-ROTATING-ID-TWO',
    accessKeySecret: 'ROTATING-SECRET-TWO-bbb',
    securityToken: 'STS-TOKEN-TWO-yyy',
  },
  { accessKeyId: 'LTAI-ROTATING-ID-3RD', accessKeySecret: 'ROTATING-SECRET-3RD-ccc' },
];
const LEAKS = GENERATIONS.flatMap((keys) => [keys.accessKeyId, keys.accessKeySecret, keys.securityToken ?? 'none']);

/** Every text a leak could hide in. */
function collector() {
  const texts: string[] = [];
  const line = (message: string, details?: Record<string, unknown>) => texts.push(message, JSON.stringify(details));
  const logger: Logger = { debug: line, info: line, warn: line, error: line };
  const keep = (error: unknown) => {
    const e = error as Error;
    texts.push(e.message, String(e.stack), JSON.stringify(e), inspect(e, { depth: 10, showHidden: true }));
    let cause = e.cause as Error | undefined;
    while (cause) {
      texts.push(cause.message, String(cause.stack));
      cause = cause.cause as Error | undefined;
    }
  };
  const assertClean = () => {
    const all = texts.join('\n');
    for (const leak of LEAKS) {
      expect(all).not.toContain(leak);
      expect(all).not.toContain(encodeURIComponent(leak));
    }
  };
  return { texts, logger, keep, assertClean };
}

describe('a rotating SMS provider', () => {
  it('signs with each generation, sends SecurityToken signed, and never shows any of them', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const seen: Record<string, string>[] = [];
    let answer = 0;
    server.use(
      http.all(`${BASE_URL}/`, async ({ request }) => {
        const { method, params } = await readRequest(request);
        seen.push(params);
        const keys = GENERATIONS.find((k) => k.accessKeyId === params.AccessKeyId);
        const valid = keys !== undefined && verifySignature(method, params, keys.accessKeySecret);
        answer += 1;
        // Echoes everything back, the way a careless proxy or server might.
        const echo = `${params.AccessKeyId} ${params.SecurityToken} ${params.Signature} ${keys?.accessKeySecret}`;
        if (!valid || answer === 2) {
          return HttpResponse.json({ Code: 'SignatureDoesNotMatch', Message: echo, RequestId: '' }, { status: 400 });
        }
        return HttpResponse.json({ Code: 'OK', Message: 'OK', RequestId: 'r' });
      }),
    );
    const { logger, keep, texts, assertClean } = collector();
    let generation = 0;
    const sms = new SmsClient({
      baseUrl: BASE_URL,
      logger,
      retry: false,
      credentials: async () => {
        const keys = GENERATIONS[generation] as SmsCredentials;
        generation = Math.min(generation + 1, GENERATIONS.length - 1);
        return { ...keys, expiresAt: Date.now() + 60_000 };
      },
    });
    texts.push(inspect(sms, { depth: 10 }), JSON.stringify(sms));
    expect(JSON.parse(JSON.stringify(sms))).toMatchObject({ accessKeyId: '(provider)' });

    await sms.send(REQUEST);
    // Refused: the provider is asked again at once, and the same send goes out signed with the second generation.
    await expect(sms.send(REQUEST).catch(keep)).resolves.toMatchObject({ code: 'OK', attempts: 2 });
    await sms.send(REQUEST);
    vi.setSystemTime(NOW + 120_000);
    await sms.send(REQUEST);
    texts.push(inspect(sms, { depth: 10 }), JSON.stringify(sms));

    expect(seen.map((p) => [p.AccessKeyId, p.SecurityToken])).toEqual([
      ['LTAI-ROTATING-ID-ONE', 'STS-TOKEN-ONE-zzz'],
      ['LTAI-ROTATING-ID-ONE', 'STS-TOKEN-ONE-zzz'],
      ['LTAI-ROTATING-ID-TWO', 'STS-TOKEN-TWO-yyy'],
      ['LTAI-ROTATING-ID-TWO', 'STS-TOKEN-TWO-yyy'],
      ['LTAI-ROTATING-ID-3RD', undefined],
    ]);
    expect(JSON.parse(JSON.stringify(sms))).toMatchObject({ accessKeyId: 'LTAI***' });
    expect(texts.join('\n')).toContain('SignatureDoesNotMatch');
    assertClean();
  });

  it('a provider error that quotes an earlier secret is masked', async () => {
    const { keep, assertClean } = collector();
    let calls = 0;
    const sms = new SmsClient({
      baseUrl: BASE_URL,
      credentials: () => {
        calls += 1;
        if (calls === 1) return { ...(GENERATIONS[0] as SmsCredentials), expiresAt: 0 };
        throw new Error(
          `cannot rotate away from ${GENERATIONS[0]?.accessKeySecret} / ${GENERATIONS[0]?.securityToken}`,
        );
      },
    });
    server.use(http.all(`${BASE_URL}/`, () => HttpResponse.json({ Code: 'OK', Message: 'OK', RequestId: 'r' })));
    await sms.send(REQUEST);
    await sms.send(REQUEST).catch(keep);
    expect(calls).toBe(2);
    assertClean();
  });

  it('refuses bad credential options at construction', () => {
    expect(
      () => new SmsClient({ baseUrl: BASE_URL, credentials: () => GENERATIONS[0] as SmsCredentials, accessKeyId: 'x' }),
    ).toThrow(ConfigurationError);
    expect(() => new SmsClient({ baseUrl: BASE_URL, credentials: { accessKeyId: 'id' } as SmsCredentials })).toThrow(
      'credentials: has no usable accessKeySecret',
    );
    expect(
      () =>
        new SmsClient({
          baseUrl: BASE_URL,
          credentials: { ...(GENERATIONS[0] as SmsCredentials), expiresAt: 'later' },
        }),
    ).toThrow('expiresAt');
    const fixed = new SmsClient({ baseUrl: BASE_URL, credentials: GENERATIONS[2] as SmsCredentials });
    expect(inspect(fixed)).not.toContain('ROTATING-SECRET');
  });
});

describe('aborting while a provider is asked', () => {
  it('SMS: rejects at once with ABORTED, and nothing is sent when the provider answers later', async () => {
    let requests = 0;
    server.use(
      http.all(`${BASE_URL}/`, () => {
        requests += 1;
        return HttpResponse.json({ Code: 'OK', Message: 'OK', RequestId: 'r' });
      }),
    );
    let answer: (keys: SmsCredentials) => void = () => {};
    const sms = new SmsClient({
      baseUrl: BASE_URL,
      credentials: () =>
        new Promise<SmsCredentials>((resolve) => {
          answer = resolve;
        }),
    });
    const controller = new AbortController();
    const sending = sms.send(REQUEST, { signal: controller.signal });
    await vi.waitFor(() => expect(answer).not.toBe(undefined));
    controller.abort();
    await expect(sending).rejects.toMatchObject({ code: 'ABORTED', outcome: 'not_sent', attempts: 0 });
    answer(GENERATIONS[0] as SmsCredentials);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toBe(0);
    // The answer is kept for the next send.
    await expect(sms.send(REQUEST)).resolves.toMatchObject({ code: 'OK' });
    expect(requests).toBe(1);
  });

  it('hash lookups: an already aborted signal sends nothing', async () => {
    const client = new HashScanClient({ baseUrl: 'https://hashscan.test', apiKey: async () => 'some-api-key' });
    const controller = new AbortController();
    controller.abort();
    await expect(client.scan('44d88612fea8a8f36de82e1278abb02f', { signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });
});

describe('a rotating API key', () => {
  it('is never shown, whichever generation is in use', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const keys = ['HASH-KEY-GENERATION-ONE', 'HASH-KEY-GENERATION-TWO'];
    server.use(
      http.get('https://hashscan.test/hash_scan', ({ request }) =>
        HttpResponse.json({ status: 'error', echo: new URL(request.url).searchParams.get('api_key') }, { status: 500 }),
      ),
    );
    const { logger, keep, texts } = collector();
    let n = 0;
    const client = new HashScanClient({
      baseUrl: 'https://hashscan.test',
      logger,
      retry: false,
      apiKey: () => ({ apiKey: keys[n++ % 2] as string, expiresAt: Date.now() + 30_000 }),
    });
    await client.scan('44d88612fea8a8f36de82e1278abb02f').catch(keep);
    vi.setSystemTime(NOW + 60_000);
    await client.scan('3395856ce81f2b7382dee72602f798b642f14140').catch(keep);
    texts.push(inspect(client, { depth: 10 }), JSON.stringify(client));
    expect(n).toBe(2);
    const all = texts.join('\n');
    for (const key of keys) expect(all).not.toContain(key);
    expect(all).toContain('api_key=***');
  });
});
