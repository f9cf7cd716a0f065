/**
 * The testing kit's msw handlers, exercised the way a user's test does (`setupServer` from the
 * msw major under test, the kit's hash and SMS handlers, the real clients). Shared by
 * msw2.test.ts and msw3.test.ts, so both majors run the very same cases.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';

/** What the suite needs of `msw/node`, from either major. */
export interface MswNode {
  setupServer(...handlers: never[]): {
    // msw 2: `{ onUnhandledRequest: 'error' }`; msw 3 renamed it `{ onUnhandledFrame: 'error' }`.
    listen(options: never): void;
    close(): void;
  };
}

/**
 * Declares the kit's cases against `msw/node` of the major under test (listening with `listenOptions`,
 * which make an unhandled request an error) and the kit loaded by `loadKit`.
 */
export function defineKitCases(
  loadNode: () => Promise<MswNode>,
  listenOptions: object,
  loadKit: () => Promise<typeof import('../../src/testing/index.js')>,
): void {
  let kit: typeof import('../../src/testing/index.js');
  let sdk: typeof import('../../src/index.js');
  let server: ReturnType<MswNode['setupServer']>;
  let hashscan: ReturnType<typeof kit.createHashScanHandlers>;
  let sms: ReturnType<typeof kit.createSmsHandlers>;
  const infected = { bytes: 'pretend this is malware' };

  beforeAll(async () => {
    kit = await loadKit();
    sdk = await import('../../src/index.js');
    const node = await loadNode();
    hashscan = kit.createHashScanHandlers({
      baseUrl: 'https://hashscan.test',
      apiKey: 'test-key',
      records: [kit.EICAR_RECORD, kit.recordFor(infected.bytes)],
      faults: { ['b'.repeat(64)]: 'http-status' },
    });
    sms = kit.createSmsHandlers({ baseUrl: 'https://sms.test' });
    server = node.setupServer(...([...hashscan, ...sms] as never[]));
    server.listen(listenOptions as never);
  });
  afterAll(() => server?.close());

  it('hash handlers: a non-detection, the EICAR hit, a flagged record and a fault', async () => {
    const client = new sdk.HashScanClient({ baseUrl: 'https://hashscan.test', apiKey: 'test-key', retry: false });
    const clean = await client.scan('a'.repeat(64));
    expect(clean.verdict).toBe('not_detected');
    const eicar = await client.scan(kit.EICAR_RECORD.sha256);
    expect(eicar).toMatchObject({ verdict: 'malicious', source: 'eicar' });
    expect(sdk.decide(await client.scanOutcome(kit.recordFor(infected.bytes).md5))).toBe('block');
    const fault = await client.scanOutcome('b'.repeat(64));
    expect(fault.verdict === 'error' && fault.error.code).toBe('HTTP_STATUS');
    expect(sdk.decide(fault)).toBe('review');
    const refused = await new sdk.HashScanClient({
      baseUrl: 'https://hashscan.test',
      apiKey: 'wrong-key',
      retry: false,
    }).scanOutcome('c'.repeat(64));
    expect(refused.verdict === 'error' && refused.error.status).toBe(401);
    expect(hashscan.requests.every((request) => request.params.api_key === '***')).toBe(true);
  });

  it('a request no handler matches fails (the listen options took effect)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(fetch('https://unhandled.test/')).rejects.toThrow();
    error.mockRestore();
  });

  it.each(['POST', 'GET'] as const)('SMS handlers: a signed %s send is accepted and recorded', async (method) => {
    const client = new sdk.SmsClient({ baseUrl: 'https://sms.test', method, ...kit.SANDBOX_ACCOUNTS.member });
    const before = sms.messages.length;
    const sent = await client.send({
      phoneNumbers: '13800138000',
      templateCode: 'SMS_100000001',
      templateParam: { code: '482913' },
    });
    expect(sent.code).toBe('OK');
    expect(sms.messages.slice(before).map((message) => message.content)).toEqual([
      'Your verification code is 482913. It expires in 5 minutes.',
    ]);
  });

  it('SMS handlers: a wrong secret is SignatureDoesNotMatch, a fault number its category', async () => {
    const { member } = kit.SANDBOX_ACCOUNTS;
    const wrong = new sdk.SmsClient({
      baseUrl: 'https://sms.test',
      accessKeyId: member.accessKeyId,
      accessKeySecret: 'not-the-secret',
    });
    const request = { phoneNumbers: '13800138000', templateCode: 'SMS_100000001', templateParam: { code: '1' } };
    await expect(wrong.send(request)).rejects.toMatchObject({ code: 'SignatureDoesNotMatch', outcome: 'rejected' });
    const client = new sdk.SmsClient({ baseUrl: 'https://sms.test', ...member });
    const error = await client
      .send({ ...request, phoneNumbers: kit.SANDBOX_FAULT_PHONE_NUMBERS.account })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(sdk.SmsError);
    expect(error).toMatchObject({ category: 'account', outcome: 'rejected' });
  });
}
