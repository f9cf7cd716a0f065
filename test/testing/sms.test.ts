import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNTS, SANDBOX_DEFAULT_SIGN_NAME } from '../../src/doubles/defaults.js';
import type { SmsAccount } from '../../src/doubles/sms-service.js';
import { SmsClient, type SmsClientOptions } from '../../src/sms/sms-client.js';
import { ADAPTERS, type Harness, type HarnessOptions, sendRaw, signed, smsParams, startHarness } from './harness.js';

const { member, free } = SANDBOX_ACCOUNTS;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BILLING_TEMPLATE = 'SMS_BILLING';

describe.each(ADAPTERS)('SMS double (%s)', (adapter) => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  async function start(options: HarnessOptions = {}): Promise<Harness> {
    harness = await startHarness(adapter, options);
    return harness;
  }

  function smsClient(h: Harness, account: SmsAccount = member, options: Partial<SmsClientOptions> = {}): SmsClient {
    return new SmsClient({
      baseUrl: h.smsUrl,
      accessKeyId: account.accessKeyId,
      accessKeySecret: account.accessKeySecret,
      retry: false,
      timeoutMs: 10_000,
      ...options,
    });
  }

  describe('through SmsClient', () => {
    it.each(['POST', 'GET'] as const)('accepts a %s send and records the message', async (method) => {
      const h = await start();
      const result = await smsClient(h, member, { method }).send({
        phoneNumbers: ['13800000000', '13900000000'],
        templateCode: 'SMS_100000001',
        templateParam: { code: '4321' },
        signName: 'Acme',
      });
      expect(result).toMatchObject({ code: 'OK', message: 'OK', attempts: 1 });
      expect(result.requestId).toMatch(UUID);
      expect(h.messages).toEqual([
        {
          requestId: result.requestId,
          accessKeyId: member.accessKeyId,
          phoneNumbers: ['13800000000', '13900000000'],
          signName: 'Acme',
          templateCode: 'SMS_100000001',
          templateParam: { code: '4321' },
          content: 'Your verification code is 4321. It expires in 5 minutes.',
          segments: 2,
          billedCount: 4,
          method,
          receivedAt: expect.any(Date),
        },
      ]);
    });

    it('forces a free account to the default signature', async () => {
      const h = await start();
      await smsClient(h, free).send({
        phoneNumbers: '13800000000',
        templateCode: 'SMS_100000002',
        templateParam: { name: 'Ann', order: 'A-1' },
        signName: 'Acme',
      });
      expect(h.messages[0]).toMatchObject({
        signName: SANDBOX_DEFAULT_SIGN_NAME,
        content: 'Hello Ann, your order A-1 has shipped.',
      });
    });

    it('applies the default signature when a member omits SignName', async () => {
      const h = await start();
      await smsClient(h).send({
        phoneNumbers: '13800000000',
        templateCode: 'SMS_100000001',
        templateParam: { code: '1' },
      });
      expect(h.messages[0]?.signName).toBe(SANDBOX_DEFAULT_SIGN_NAME);
    });

    it('reports a wrong secret as SignatureDoesNotMatch, not billed', async () => {
      const h = await start();
      const client = smsClient(h, { ...member, accessKeySecret: 'not-the-secret' });
      await expect(
        client.send({ phoneNumbers: '13800000000', templateCode: 'SMS_100000001', templateParam: { code: '1' } }),
      ).rejects.toMatchObject({ code: 'SignatureDoesNotMatch', outcome: 'rejected', requestId: '', status: 400 });
      expect(h.messages).toEqual([]);
      expect(h.requests.map((request) => request.outcome)).toEqual(['SignatureDoesNotMatch']);
    });

    it('reports an unknown template and a missing placeholder value', async () => {
      const h = await start();
      const client = smsClient(h);
      await expect(
        client.send({ phoneNumbers: '13800000000', templateCode: 'SMS_999', templateParam: {} }),
      ).rejects.toMatchObject({ code: 'isv.SMS_TEMPLATE_ILLEGAL', outcome: 'rejected' });
      await expect(
        client.send({ phoneNumbers: '13800000000', templateCode: 'SMS_100000002', templateParam: { name: 'Ann' } }),
      ).rejects.toMatchObject({ code: 'isv.TEMPLATE_MISSING_PARAMETERS' });
      expect(h.messages).toEqual([]);
    });

    it('checks only the signature for the special template code, billing 1', async () => {
      const h = await start();
      await smsClient(h).send({
        phoneNumbers: '13800000000',
        templateCode: 'SMS_500650100',
        templateParam: { any: 'x'.repeat(200) },
      });
      expect(h.messages[0]).toMatchObject({ templateCode: 'SMS_500650100', content: undefined, billedCount: 1 });
    });
  });

  describe('billing', () => {
    it.each([
      ['49 characters', 'x'.repeat(49), 1],
      ['50 characters', 'x'.repeat(50), 1],
      ['51 characters', 'x'.repeat(51), 2],
      ['50 emoji (100 UTF-16 units)', '😀'.repeat(50), 1],
      ['51 emoji', '😀'.repeat(51), 2],
      ['an empty content', '', 1],
    ])('bills %s as %i', async (_label, text, billed) => {
      const h = await start({ sms: { templates: { [BILLING_TEMPLATE]: `$\{text}` } } });
      await smsClient(h).send({ phoneNumbers: '13800000000', templateCode: BILLING_TEMPLATE, templateParam: { text } });
      expect(h.messages[0]?.billedCount).toBe(billed);
    });

    it('bills 1 per send when the template content is not held', async () => {
      const h = await start({ sms: { templates: { SMS_OPAQUE: null } } });
      await smsClient(h).send({
        phoneNumbers: '13800000000',
        templateCode: 'SMS_OPAQUE',
        templateParam: { text: 'x'.repeat(120) },
      });
      expect(h.messages[0]).toMatchObject({ content: undefined, billedCount: 1 });
    });
  });

  describe('with raw requests', () => {
    it.each(['GET', 'POST'] as const)('accepts a correctly signed %s', async (method) => {
      const h = await start();
      const answer = await sendRaw(h.smsUrl, method, signed(method, smsParams(member), member.accessKeySecret));
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ Code: 'OK', Message: 'OK', RequestId: expect.stringMatching(UUID) });
    });

    it('gives each success its own RequestId', async () => {
      const h = await start();
      const ids = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const answer = await sendRaw(h.smsUrl, 'POST', signed('POST', smsParams(member), member.accessKeySecret));
        ids.add(answer.body.RequestId);
      }
      expect(ids.size).toBe(3);
    });

    it.each([
      ['no Signature', 'MissingSignature', (params: Record<string, string>) => params],
      [
        'a wrong Signature',
        'SignatureDoesNotMatch',
        (params: Record<string, string>) => ({ ...params, Signature: 'AAAA' }),
      ],
      [
        'a GET signature sent as POST',
        'SignatureDoesNotMatch',
        (params: Record<string, string>) => signed('GET', params, member.accessKeySecret),
      ],
      [
        'a parameter changed after signing',
        'SignatureDoesNotMatch',
        (params: Record<string, string>) => ({
          ...signed('POST', params, member.accessKeySecret),
          PhoneNumbers: '13900000000',
        }),
      ],
    ])('refuses %s with %s, HTTP 400 and an empty RequestId', async (_label, code, prepare) => {
      const h = await start();
      const answer = await sendRaw(h.smsUrl, 'POST', prepare(smsParams(member)));
      expect(answer).toEqual({ status: 400, body: { Code: code, Message: expect.any(String), RequestId: '' } });
      expect(h.messages).toEqual([]);
    });

    it('refuses an unknown AccessKeyId', async () => {
      const h = await start();
      const stranger = { accessKeyId: 'nobody', accessKeySecret: 'whatever' };
      const answer = await sendRaw(h.smsUrl, 'POST', signed('POST', smsParams(stranger), stranger.accessKeySecret));
      expect(answer.body.Code).toBe('InvalidAccessKeyId.NotFound');
    });

    it('checks the signature before the parameters', async () => {
      const h = await start();
      const params = smsParams(member, { TemplateParam: '{not json' });
      const wrong = await sendRaw(h.smsUrl, 'POST', { ...params, Signature: 'AAAA' });
      expect(wrong.body.Code).toBe('SignatureDoesNotMatch');
      const right = await sendRaw(h.smsUrl, 'POST', signed('POST', params, member.accessKeySecret));
      expect(right).toMatchObject({ status: 400, body: { Code: 'InvalidParameter', RequestId: '' } });
    });

    it.each([
      ['TemplateParam that is not JSON', { TemplateParam: '{"code":' }, 'InvalidParameter'],
      [
        'TemplateParam that is not JSON, special template',
        { TemplateParam: 'nope', TemplateCode: 'SMS_500650100' },
        'InvalidParameter',
      ],
      ['TemplateParam that is not an object', { TemplateParam: '[1]' }, 'InvalidParameter'],
      ['no PhoneNumbers', { PhoneNumbers: undefined }, 'MissingPhoneNumbers'],
      ['a malformed phone number', { PhoneNumbers: '138,abc' }, 'isv.MOBILE_NUMBER_ILLEGAL'],
      ['no TemplateCode', { TemplateCode: undefined }, 'MissingTemplateCode'],
      ['no TemplateParam', { TemplateParam: undefined }, 'MissingTemplateParam'],
      ['an Action other than SendSms on POST', { Action: 'QuerySendDetails' }, 'InvalidAction.NotFound'],
    ])('refuses %s', async (_label, overrides, code) => {
      const h = await start();
      const answer = await sendRaw(
        h.smsUrl,
        'POST',
        signed('POST', smsParams(member, overrides), member.accessKeySecret),
      );
      expect(answer).toEqual({ status: 400, body: { Code: code, Message: expect.any(String), RequestId: '' } });
    });

    it('holds members with a signature prefix to it', async () => {
      const acme: SmsAccount = {
        accessKeyId: 'acme-id',
        accessKeySecret: 'acme-secret',
        plan: 'member',
        signPrefix: 'Acme',
      };
      const h = await start({ sms: { accounts: [acme] } });
      const send = (SignName: string) =>
        sendRaw(h.smsUrl, 'POST', signed('POST', smsParams(acme, { SignName }), acme.accessKeySecret));
      expect((await send('Acme Shop')).body.Code).toBe('OK');
      expect((await send('Other')).body.Code).toBe('isv.SMS_SIGNATURE_ILLEGAL');
      expect(h.messages.map((message) => message.signName)).toEqual(['Acme Shop']);
    });

    it.each([
      [
        'all of u, p, m, c (even on PUT)',
        'PUT',
        { u: 'user', p: 'pass', m: '13800000000', c: 'hi' },
        {},
        'third-party SMS gateway',
      ],
      ['Version 2021-01-11', 'POST', { Version: '2021-01-11' }, {}, 'second cloud vendor'],
      ['an X-TC-Action header', 'POST', {}, { 'X-TC-Action': 'SendSms' }, 'second cloud vendor'],
      ['an X-TC-Version header', 'GET', { Action: 'SendSms' }, { 'X-TC-Version': '2021-01-11' }, 'second cloud vendor'],
      ['a GET without Action', 'GET', { PhoneNumbers: '13800000000' }, {}, 'SysKey'],
    ])('declines a request routed by %s with 501 ModeNotAvailable', async (_label, method, params, headers, mode) => {
      const h = await start();
      const answer = await sendRaw(h.smsUrl, method, params, headers);
      expect(answer).toEqual({
        status: 501,
        body: { Code: 'ModeNotAvailable', Message: expect.stringContaining(mode), RequestId: '' },
      });
    });

    it('routes the gateway mode before the second vendor, and that before AK/SK', async () => {
      const h = await start();
      const gateway = await sendRaw(h.smsUrl, 'GET', { u: 'a', p: 'b', m: 'c', c: 'd', Version: '2021-01-11' });
      expect(gateway.body.Message).toContain('gateway');
      const vendor = await sendRaw(
        h.smsUrl,
        'GET',
        signed('GET', smsParams(member, { Version: '2021-01-11' }), member.accessKeySecret),
      );
      expect(vendor.body.Message).toContain('second cloud vendor');
      expect(h.messages).toEqual([]);
    });

    it('answers a GET whose Action is not SendSms with InvalidAction.NotFound', async () => {
      const h = await start();
      const answer = await sendRaw(h.smsUrl, 'GET', { Action: 'QuerySendDetails' });
      expect(answer).toEqual({
        status: 400,
        body: { Code: 'InvalidAction.NotFound', Message: expect.any(String), RequestId: '' },
      });
    });

    it.each(['PUT', 'DELETE', 'PATCH'])('rejects %s with 405 MethodNotAllowed', async (method) => {
      const h = await start();
      const response = await fetch(`${h.smsUrl}/`, { method, body: 'Action=SendSms' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, POST');
      expect(await response.json()).toEqual({ Code: 'MethodNotAllowed', Message: expect.any(String), RequestId: '' });
    });

    it('logs failures as requests, never as messages, and masks secrets', async () => {
      const h = await start();
      const good = signed('POST', smsParams(member), member.accessKeySecret);
      await sendRaw(h.smsUrl, 'POST', good);
      await sendRaw(h.smsUrl, 'POST', { ...good, Signature: 'AAAA' });
      await sendRaw(h.smsUrl, 'GET', { u: 'user', p: member.accessKeySecret, m: '1', c: 'x' });
      await sendRaw(h.smsUrl, 'GET', { Action: 'SendSms', Note: `leaked ${member.accessKeySecret}` });
      expect(h.requests.map((request) => [request.method, request.status, request.outcome])).toEqual([
        ['POST', 200, 'OK'],
        ['POST', 400, 'SignatureDoesNotMatch'],
        ['GET', 501, 'ModeNotAvailable'],
        ['GET', 400, 'MissingSignature'],
      ]);
      expect(h.messages).toHaveLength(1);
      const log = JSON.stringify(h.requests);
      expect(log).not.toContain(member.accessKeySecret);
      expect(log).not.toContain(good.Signature);
      expect(h.requests[0]?.params).toMatchObject({ Signature: '***', AccessKeyId: member.accessKeyId });
    });
  });
});
