import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { useMswServer } from '../helpers/msw.js';
import {
  ACCESS_KEY_ID,
  BASE_URL,
  makeClient,
  parseWire,
  REQUEST,
  rejection,
  serveSms,
  signedWithTestKey,
  TIMESTAMP,
  UUID,
} from './sms-service.js';

const server = useMswServer();

const COMMON_KEYS = [
  'AccessKeyId',
  'Action',
  'Format',
  'RegionId',
  'Signature',
  'SignatureMethod',
  'SignatureNonce',
  'SignatureVersion',
  'Timestamp',
  'Version',
];

/** Serves `/` with a fixed answer and counts the requests. */
function answerWith(response: () => Response): { count: () => number } {
  let count = 0;
  server.use(
    http.all(`${BASE_URL}/`, () => {
      count += 1;
      return response();
    }),
  );
  return { count: () => count };
}

describe('SmsClient.send against the signing test double', () => {
  it.each(['POST', 'GET'] as const)('a %s send is signed with that method and resolves OK', async (method) => {
    const received = serveSms(server);
    const result = await makeClient({ method }).send(REQUEST);

    expect(result).toEqual({ code: 'OK', message: 'OK', requestId: expect.stringMatching(UUID), attempts: 1 });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.method).toBe(method);
    expect(request?.signatureValid).toBe(true);
    expect(Object.keys(request?.params ?? {}).sort()).toEqual(
      [...COMMON_KEYS, 'PhoneNumbers', 'TemplateCode', 'TemplateParam'].sort(),
    );
    expect(request?.params).toMatchObject({
      AccessKeyId: ACCESS_KEY_ID,
      Action: 'SendSms',
      Format: 'JSON',
      RegionId: 'cn-hangzhou',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: expect.stringMatching(UUID),
      SignatureVersion: '1.0',
      Timestamp: expect.stringMatching(TIMESTAMP),
      Version: '2017-05-25',
      PhoneNumbers: '13800000000',
      TemplateCode: 'SMS_123456789',
      TemplateParam: '{"code":"1234"}',
    });
  });

  it('POST sends a form body to / and GET sends everything in the query of /', async () => {
    const seen: { method: string; url: string; body: string; contentType: string | null }[] = [];
    server.use(
      http.all(`${BASE_URL}/`, async ({ request }) => {
        seen.push({
          method: request.method,
          url: request.url,
          body: await request.text(),
          contentType: request.headers.get('content-type'),
        });
        return HttpResponse.json({ Code: 'OK', Message: 'OK', RequestId: 'r-1' });
      }),
    );
    const client = makeClient();
    await client.send(REQUEST);
    await client.send(REQUEST, { method: 'GET' });

    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: `${BASE_URL}/`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(parseWire(seen[0]?.body ?? '')).toHaveProperty('Signature');
    expect(seen[1]).toMatchObject({ method: 'GET', body: '' });
    expect(new URL(seen[1]?.url ?? '').pathname).toBe('/');
    expect(parseWire(new URL(seen[1]?.url ?? '').search.slice(1))).toHaveProperty('Signature');
  });

  it('the Timestamp is the current UTC second and each send has its own nonce', async () => {
    const received = serveSms(server);
    const client = makeClient();
    const before = Math.floor(Date.now() / 1000) * 1000;
    await client.send(REQUEST);
    await client.send(REQUEST);
    const after = Date.now();

    const [first, second] = received.map((request) => request.params);
    for (const params of [first, second]) {
      const sent = Date.parse(params?.Timestamp ?? '');
      expect(sent).toBeGreaterThanOrEqual(before);
      expect(sent).toBeLessThanOrEqual(after);
    }
    expect(first?.SignatureNonce).not.toBe(second?.SignatureNonce);
  });

  it('passes regionId, version, signName, outId and a list of phone numbers', async () => {
    const received = serveSms(server);
    await makeClient({ regionId: 'cn-shanghai', version: '2017-05-25' }).send({
      phoneNumbers: ['13800000000', '13900000000'],
      templateCode: 'SMS_1',
      templateParam: '{"code": "42"}',
      signName: 'Acme 阿里',
      outId: 'order-7',
    });
    expect(received[0]?.signatureValid).toBe(true);
    expect(received[0]?.params).toMatchObject({
      RegionId: 'cn-shanghai',
      PhoneNumbers: '13800000000,13900000000',
      TemplateParam: '{"code": "42"}',
      SignName: 'Acme 阿里',
      OutId: 'order-7',
    });
  });

  it('leaves empty optional parameters out instead of signing them as empty', async () => {
    const received = serveSms(server);
    await makeClient().send({ ...REQUEST, signName: '', outId: '' });
    expect(received[0]?.signatureValid).toBe(true);
    expect(received[0]?.params).not.toHaveProperty('SignName');
    expect(received[0]?.params).not.toHaveProperty('OutId');
    expect(received[0]?.wire).not.toMatch(/SignName|OutId/);
  });

  it.each(['POST', 'GET'] as const)('%s writes a space as %%20 and never as +', async (method) => {
    const received = serveSms(server);
    await makeClient({ method }).send({ ...REQUEST, templateParam: { name: 'a b+c' }, signName: "It's (ok)!" });
    const { wire, params, signatureValid } = received[0] ?? expect.fail('no request');
    expect(signatureValid).toBe(true);
    expect(wire).not.toContain('+');
    expect(wire).toContain('a%20b%2Bc');
    expect(wire).toContain('It%27s%20%28ok%29%21');
    expect(params.SignName).toBe("It's (ok)!");
  });

  it('never carries the routing triggers of other access modes', async () => {
    const received = serveSms(server);
    const client = makeClient();
    await client.send(REQUEST);
    await client.send(REQUEST, { method: 'GET' });
    for (const { params, headers } of received) {
      expect(['u', 'p', 'm', 'c'].filter((name) => name in params)).toEqual([]);
      expect(params.Version).not.toBe('2021-01-11');
      expect(headers.has('x-tc-action') || headers.has('x-tc-version')).toBe(false);
    }
  });

  it('a GET-signed request replayed as POST fails with SignatureDoesNotMatch', async () => {
    const received = serveSms(server);
    await makeClient({ method: 'GET' }).send(REQUEST);
    const wire = received[0]?.wire ?? expect.fail('no request captured');

    const asPost = await fetch(`${BASE_URL}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: wire,
    });
    expect(await asPost.json()).toEqual({
      Code: 'SignatureDoesNotMatch',
      Message: expect.any(String),
      RequestId: '',
    });
    // Control: the very same parameters verify when replayed with the method they were signed for.
    const asGet = await fetch(`${BASE_URL}/?${wire}`);
    expect(await asGet.json()).toMatchObject({ Code: 'OK' });
    expect(received.map((request) => [request.method, request.signatureValid])).toEqual([
      ['GET', true],
      ['POST', false],
      ['GET', true],
    ]);
  });

  it('a wrong secret rejects SignatureDoesNotMatch with an empty requestId, and is not retried', async () => {
    const received = serveSms(server);
    const error = await rejection(
      makeClient({ accessKeySecret: 'not-the-secret', retryUnknownOutcome: true }).send(REQUEST),
    );
    expect(error).toMatchObject({
      code: 'SignatureDoesNotMatch',
      outcome: 'rejected',
      requestId: '',
      serviceMessage: 'Specified signature is not matched with our calculation.',
      httpStatus: 400,
      status: 400,
      attempts: 1,
    });
    expect(error.message).toContain('SignatureDoesNotMatch');
    expect(received).toHaveLength(1);
    expect(signedWithTestKey('POST', received[0]?.params ?? {})).toBe(false);
  });

  it('an unknown key id is the service error code it answers', async () => {
    serveSms(server);
    const error = await rejection(makeClient({ accessKeyId: 'someone-else' }).send(REQUEST));
    expect(error).toMatchObject({ code: 'InvalidAccessKeyId.NotFound', outcome: 'rejected' });
  });
});

describe('SmsClient.send: what the service answers', () => {
  it('tolerates extra fields next to Code, Message and RequestId', async () => {
    answerWith(() => HttpResponse.json({ Code: 'OK', Message: 'OK', RequestId: 'r-9', BizId: 'b', Extra: [1] }));
    await expect(makeClient().send(REQUEST)).resolves.toEqual({
      code: 'OK',
      message: 'OK',
      requestId: 'r-9',
      attempts: 1,
    });
  });

  it.each([
    [200, 'InvalidParameter', 'TemplateParam is not valid JSON'],
    [400, 'InvalidParameter', 'bad'],
    [200, 'isv.BUSINESS_LIMIT_CONTROL', 'too many'],
    [503, 'ServiceUnavailable', 'busy'],
  ])('HTTP %i with Code %s rejects with that code, never retried', async (status, Code, Message) => {
    const calls = answerWith(() => HttpResponse.json({ Code, Message, RequestId: 'r-2' }, { status }));
    const error = await rejection(makeClient({ retryUnknownOutcome: true }).send(REQUEST));
    expect(error).toMatchObject({
      code: Code,
      outcome: 'rejected',
      requestId: 'r-2',
      serviceMessage: Message,
      httpStatus: status,
      parameter: undefined,
    });
    expect(calls.count()).toBe(1);
  });

  it.each([
    ['a plain-text body', () => new HttpResponse('Method Not Allowed', { status: 405 }), undefined],
    [
      'a service body',
      () => HttpResponse.json({ Code: 'MethodNotAllowed', Message: 'no', RequestId: 'r-5' }, { status: 405 }),
      'r-5',
    ],
  ])('HTTP 405 with %s rejects MethodNotAllowed', async (_name, response, requestId) => {
    const calls = answerWith(response);
    const error = await rejection(makeClient({ retryUnknownOutcome: true }).send(REQUEST));
    expect(error).toMatchObject({ code: 'MethodNotAllowed', outcome: 'rejected', httpStatus: 405, requestId });
    expect(calls.count()).toBe(1);
  });

  it('the test double answers 405 to other methods', async () => {
    serveSms(server);
    const response = await fetch(`${BASE_URL}/`, { method: 'PUT', body: 'x' });
    expect(response.status).toBe(405);
  });

  it('Code OK with HTTP 500 rejects INVALID_RESPONSE with an unknown outcome, even with the opt-in', async () => {
    const calls = answerWith(() => HttpResponse.json({ Code: 'OK', Message: 'OK', RequestId: 'r-3' }, { status: 500 }));
    const error = await rejection(makeClient({ retryUnknownOutcome: true }).send(REQUEST));
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', outcome: 'unknown', httpStatus: 500, requestId: 'r-3' });
    expect(calls.count()).toBe(1);
  });

  it.each([
    ['not JSON', 200, () => new HttpResponse('<html>OK</html>'), 'INVALID_RESPONSE', 'body: not valid JSON'],
    ['a JSON array', 200, () => HttpResponse.json([{ Code: 'OK' }]), 'INVALID_RESPONSE', 'body:'],
    ['no RequestId', 200, () => HttpResponse.json({ Code: 'OK', Message: 'OK' }), 'INVALID_RESPONSE', 'RequestId:'],
    [
      'a non-string Code',
      200,
      () => HttpResponse.json({ Code: 200, Message: 'OK', RequestId: 'r' }),
      'INVALID_RESPONSE',
      'Code:',
    ],
    [
      'an empty Code',
      200,
      () => HttpResponse.json({ Code: '', Message: '', RequestId: 'r' }),
      'INVALID_RESPONSE',
      'Code:',
    ],
    ['no Message', 200, () => HttpResponse.json({ Code: 'OK', RequestId: 'r' }), 'INVALID_RESPONSE', 'Message:'],
    [
      'an HTML error page',
      502,
      () => new HttpResponse('<h1>Bad Gateway</h1>', { status: 502 }),
      'HTTP_STATUS',
      'body:',
    ],
    ['a foreign JSON error', 400, () => HttpResponse.json({ error: 'nope' }, { status: 400 }), 'HTTP_STATUS', 'Code:'],
  ])('a body that is %s (HTTP %i) rejects %s', async (_name, status, response, code, issue) => {
    const calls = answerWith(response);
    const error = await rejection(makeClient().send(REQUEST));
    expect(error).toMatchObject({ code, outcome: 'unknown', httpStatus: status, requestId: undefined, attempts: 1 });
    expect(error.issues?.join('\n')).toContain(issue);
    expect(typeof error.body).toBe('string');
    expect(calls.count()).toBe(1);
  });
});
