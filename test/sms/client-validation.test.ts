import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { type SendSmsRequest, SmsClient, SmsError } from '../../src/sms/index.js';
import { useMswServer } from '../helpers/msw.js';
import { ACCESS_KEY_ID, ACCESS_KEY_SECRET, BASE_URL, makeClient, REQUEST, serveSms } from './sms-service.js';

const server = useMswServer();

afterEach(() => {
  vi.unstubAllEnvs();
});

/** Requests that must be refused before anything is sent: [field named, request]. */
const INVALID: [string, unknown][] = [
  ['templateParam', { ...REQUEST, templateParam: 'not json' }],
  ['templateParam', { ...REQUEST, templateParam: '{"code": "1"' }],
  ['templateParam', { ...REQUEST, templateParam: '[1]' }],
  ['templateParam', { ...REQUEST, templateParam: '42' }],
  ['templateParam', { ...REQUEST, templateParam: 'null' }],
  ['templateParam', { ...REQUEST, templateParam: '' }],
  ['templateParam', { ...REQUEST, templateParam: ['1'] }],
  ['templateParam', { ...REQUEST, templateParam: null }],
  ['templateParam', { ...REQUEST, templateParam: { nested: { a: 1 } } }],
  ['templateParam', { ...REQUEST, templateParam: { n: Number.NaN } }],
  ['templateParam', { ...REQUEST, templateParam: { big: 1n } }],
  ['templateParam', { ...REQUEST, templateParam: new Map([['code', '1']]) }],
  ['templateParam', { ...REQUEST, templateParam: '{"a":"\uD800"}' }],
  ['templateParam', { phoneNumbers: '13800000000', templateCode: 'SMS_1' }],
  ['phoneNumbers', { ...REQUEST, phoneNumbers: '' }],
  ['phoneNumbers', { ...REQUEST, phoneNumbers: '   ' }],
  ['phoneNumbers', { ...REQUEST, phoneNumbers: [] }],
  ['phoneNumbers', { ...REQUEST, phoneNumbers: 13800000000 }],
  ['phoneNumbers[1]', { ...REQUEST, phoneNumbers: ['13800000000', ''] }],
  ['phoneNumbers[0]', { ...REQUEST, phoneNumbers: [13800000000] }],
  ['phoneNumbers[0]', { ...REQUEST, phoneNumbers: ['1,2'] }],
  ['phoneNumbers', { templateCode: 'SMS_1', templateParam: {} }],
  ['templateCode', { ...REQUEST, templateCode: '' }],
  ['templateCode', { ...REQUEST, templateCode: undefined }],
  ['signName', { ...REQUEST, signName: 42 }],
  ['signName', { ...REQUEST, signName: 'Acme\uDC00' }],
  ['outId', { ...REQUEST, outId: null }],
  ['u', { ...REQUEST, u: 'user', p: 'pass', m: '1', c: 'hi' }],
  ['Version', { ...REQUEST, Version: '2021-01-11' }],
  ['request', null],
];

describe('client-side validation of a send', () => {
  it.each(INVALID)('%s: rejects InvalidParameter and sends nothing', async (field, request) => {
    const received = serveSms(server);
    const error = await makeClient()
      .send(request as SendSmsRequest)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsError);
    expect(error).toMatchObject({
      code: 'InvalidParameter',
      outcome: 'not_sent',
      parameter: field,
      attempts: 0,
      requestId: undefined,
      httpStatus: undefined,
    });
    expect((error as Error).message.startsWith(`${field}: `)).toBe(true);
    expect(received).toHaveLength(0);
  });

  it('refuses a per-call method other than GET or POST', async () => {
    const received = serveSms(server);
    const error = await makeClient()
      .send(REQUEST, { method: 'PUT' as 'GET' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'InvalidParameter', parameter: 'method', outcome: 'not_sent' });
    expect(received).toHaveLength(0);
  });

  it('accepts a JSON string, an empty variable map, and sends numbers or booleans as strings', async () => {
    const received = serveSms(server);
    const client = makeClient();
    await client.send({ ...REQUEST, templateParam: ' {"code":"1"} ' });
    await client.send({ ...REQUEST, templateParam: {} });
    await client.send({ ...REQUEST, templateParam: { n: 7, ok: true } });
    expect(received.map((request) => request.params.TemplateParam)).toEqual([
      ' {"code":"1"} ',
      '{}',
      '{"n":"7","ok":"true"}',
    ]);
  });
});

describe('SmsClient construction', () => {
  const options = { accessKeyId: ACCESS_KEY_ID, accessKeySecret: ACCESS_KEY_SECRET, baseUrl: BASE_URL };

  it.each([
    ['accessKeyId', { ...options, accessKeyId: undefined }],
    ['accessKeyId', { ...options, accessKeyId: '' }],
    ['accessKeySecret', { ...options, accessKeySecret: undefined }],
    ['accessKeySecret', { ...options, accessKeySecret: 'secret\uD800' }],
    ['baseUrl', { ...options, baseUrl: undefined }],
    ['baseUrl', { ...options, baseUrl: 'http://sms.example.com' }],
    ['baseUrl', { ...options, baseUrl: 'not a url' }],
    ['version', { ...options, version: '2021-01-11' }],
    ['version', { ...options, version: '' }],
    ['method', { ...options, method: 'PUT' }],
    ['method', { ...options, method: 'post' }],
    ['regionId', { ...options, regionId: '' }],
    ['retryUnknownOutcome', { ...options, retryUnknownOutcome: 'yes' }],
    ['timeoutMs', { ...options, timeoutMs: 0 }],
  ])('%s: a bad or missing value is a ConfigurationError', (option, given) => {
    vi.stubEnv('SMS_ACCESS_KEY_ID', '');
    vi.stubEnv('SMS_ACCESS_KEY_SECRET', '');
    vi.stubEnv('SMS_BASE_URL', '');
    const construct = () => new SmsClient(given as ConstructorParameters<typeof SmsClient>[0]);
    expect(construct).toThrow(ConfigurationError);
    expect(construct).toThrow(expect.objectContaining({ option, code: 'CONFIGURATION' }));
  });

  it('says why 2021-01-11 is refused', () => {
    expect(() => new SmsClient({ ...options, version: '2021-01-11' })).toThrow(/another vendor's protocol/);
  });

  it('reads the key pair and base URL from the environment, and sends with them', async () => {
    vi.stubEnv('SMS_ACCESS_KEY_ID', ACCESS_KEY_ID);
    vi.stubEnv('SMS_ACCESS_KEY_SECRET', ACCESS_KEY_SECRET);
    vi.stubEnv('SMS_BASE_URL', `${BASE_URL}/`);
    const received = serveSms(server);
    const client = new SmsClient();
    expect(client).toMatchObject({ baseUrl: BASE_URL, method: 'POST', regionId: 'cn-hangzhou', version: '2017-05-25' });
    await expect(client.send(REQUEST)).resolves.toMatchObject({ code: 'OK' });
    expect(received[0]?.signatureValid).toBe(true);
  });

  it('accepts plain http only for loopback hosts', () => {
    expect(new SmsClient({ ...options, baseUrl: 'http://127.0.0.1:8080' }).baseUrl).toBe('http://127.0.0.1:8080');
    expect(new SmsClient({ ...options, baseUrl: 'http://localhost' }).baseUrl).toBe('http://localhost');
  });
});
