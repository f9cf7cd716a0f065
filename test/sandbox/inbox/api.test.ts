import { describe, expect, it } from 'vitest';
import { HashScanClient } from '../../../src/index.js';
import {
  EICAR_RECORD,
  type InboxLookup,
  type InboxMessage,
  SANDBOX_FAULT_HASHES,
  SANDBOX_FAULT_PHONE_NUMBERS,
  SANDBOX_NOT_DETECTED_HASH,
} from '../../../src/sandbox/index.js';
import { computeSignature, signStringToSign } from '../../../src/sms/signing/compute-signature.js';
import { inboxGet, smsClient, useSandbox } from './inbox-helpers.js';

type MessageList = { loopback: boolean; limit: number; messages: InboxMessage[] };

const start = useSandbox();

const otp = (code: string, phoneNumbers = '13800138000') => ({
  phoneNumbers,
  templateCode: 'SMS_100000001',
  templateParam: { code },
});

describe('the inbox JSON API', () => {
  it('lives at {url}/_inbox, next to the services', async () => {
    const box = await start();
    expect(box.inboxUrl).toBe(`${box.url}/_inbox`);
    const { status, body } = await inboxGet(box, '/api/messages');
    expect(status).toBe(200);
    expect(body).toEqual({ loopback: true, address: '127.0.0.1', limit: 1000, messages: [] });
  });

  it('lists every send, newest first, with the content after substitution, the billed count and the code', async () => {
    const box = await start();
    const sms = smsClient(box);
    const posted = await sms.send({ ...otp('482913'), signName: 'DemoShop' }, { method: 'POST' });
    const got = await sms.send(
      {
        phoneNumbers: ['13900139000', '+8613700137000'],
        templateCode: 'SMS_100000002',
        templateParam: { name: 'Ada', order: 'A-1' },
      },
      { method: 'GET' },
    );
    const { body } = await inboxGet(box, '/api/messages');
    const { messages } = body as MessageList;
    expect(messages).toEqual([
      expect.objectContaining({
        id: 2,
        method: 'GET',
        outcome: 'accepted',
        code: 'OK',
        // As sent: `SmsClient` sends a mainland number as its 11 digits, whatever the spelling it was given.
        phoneNumbers: ['13900139000', '13700137000'],
        templateCode: 'SMS_100000002',
        content: 'Hello Ada, your order A-1 has shipped.',
        billedCount: 2,
        requestId: got.requestId,
      }),
      expect.objectContaining({
        id: 1,
        method: 'POST',
        outcome: 'accepted',
        phoneNumbers: ['13800138000'],
        signName: 'DemoShop',
        templateParam: '{"code":"482913"}',
        content: 'Your verification code is 482913. It expires in 5 minutes.',
        verificationCode: '482913',
        billedCount: 2,
        requestId: posted.requestId,
      }),
    ]);
    expect(Date.parse(messages[0]?.receivedAt ?? '')).toBeGreaterThan(0);
    expect(messages[0]?.verificationCode).toBeUndefined();
  });

  it('filters by phone number in any spelling, gets one by id, and the latest', async () => {
    const box = await start();
    const sms = smsClient(box);
    await sms.send(otp('111111', '13800138000'));
    await sms.send(otp('222222', '+8613900139000'));
    await sms.send(otp('333333', '13800138000'));
    const filtered = (await inboxGet(box, '/api/messages?phone=13800138000')).body as MessageList;
    expect(filtered.messages.map((m) => m.verificationCode)).toEqual(['333333', '111111']);
    const plus = (await inboxGet(box, '/api/messages?phone=%2B8613900139000')).body as MessageList;
    expect(plus.messages.map((m) => m.verificationCode)).toEqual(['222222']);
    expect((await inboxGet(box, '/api/messages?phone=8613900139000')).body).toMatchObject({ messages: [{ id: 2 }] });
    expect((await inboxGet(box, '/api/messages?phone=008613900139000')).body).toMatchObject({ messages: [{ id: 2 }] });
    await sms.send(otp('444444', '+852 6123 4567'));
    expect((await inboxGet(box, '/api/messages?phone=%2B85261234567')).body).toMatchObject({ messages: [{ id: 4 }] });
    expect(await inboxGet(box, '/api/messages/2')).toMatchObject({
      status: 200,
      body: { id: 2, verificationCode: '222222' },
    });
    expect(await inboxGet(box, '/api/messages/latest?phone=%2B8613800138000')).toMatchObject({ body: { id: 3 } });
    expect(await inboxGet(box, '/api/messages/9')).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await inboxGet(box, '/api/messages/latest?phone=100')).toMatchObject({ status: 404 });
    expect(await inboxGet(box, '/api/nothing')).toMatchObject({ status: 404 });
  });

  it('shows a refused send with its code, and a bad signature with the string to sign the sandbox computed', async () => {
    const box = await start();
    const fault = await smsClient(box)
      .send(otp('1234', SANDBOX_FAULT_PHONE_NUMBERS.rate_limit))
      .catch((e) => e);
    expect(fault).toMatchObject({ code: 'isv.BUSINESS_LIMIT_CONTROL' });

    // A raw signed POST with a wrong secret, so the test knows the signature that was sent.
    const wrongSecret = 'not-the-sandbox-secret';
    const params: Record<string, string> = {
      AccessKeyId: box.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: '13800138000',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: 'nonce-1',
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_100000001',
      TemplateParam: '{"code":"1234"}',
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
    };
    const Signature = computeSignature('POST', params, wrongSecret);
    const answer = await fetch(`${box.smsUrl}/`, {
      method: 'POST',
      body: new URLSearchParams({ ...params, Signature }),
    });
    expect(answer.status).toBe(400);

    const { messages } = (await inboxGet(box, '/api/messages')).body as MessageList;
    const [mismatch, limited] = messages;
    expect(limited).toMatchObject({
      outcome: 'refused',
      code: 'isv.BUSINESS_LIMIT_CONTROL',
      phoneNumbers: ['19900000001'],
    });
    expect(limited?.stringToSign).toBeUndefined();
    expect(mismatch).toMatchObject({
      outcome: 'refused',
      code: 'SignatureDoesNotMatch',
      phoneNumbers: ['13800138000'],
      templateCode: 'SMS_100000001',
      templateParam: '{"code":"1234"}',
    });
    expect(mismatch?.content).toBeUndefined();
    expect(mismatch?.verificationCode).toBeUndefined();
    // What the sandbox shows is exactly what the client signed: its signature over it is the one sent.
    expect(mismatch?.stringToSign?.startsWith('POST&%2F&AccessKeyId%3D')).toBe(true);
    expect(signStringToSign(mismatch?.stringToSign ?? '', wrongSecret)).toBe(Signature);
    expect(JSON.stringify(messages)).not.toContain(box.accessKeySecret);
    expect(box.requests.at(-1)?.stringToSign).toBe(mismatch?.stringToSign);
  });

  it('lists every lookup with the verdict given and the fault injected', async () => {
    const box = await start();
    const client = new HashScanClient({
      baseUrl: box.hashScanUrl,
      apiKey: box.apiKey,
      cache: false,
      retry: { retries: 0 },
    });
    await client.scan(EICAR_RECORD.sha256);
    await client.scan(SANDBOX_NOT_DETECTED_HASH);
    await client.scan(SANDBOX_FAULT_HASHES['http-status']).catch(() => undefined);
    const { status, body } = await inboxGet(box, '/api/lookups');
    expect(status).toBe(200);
    const { lookups } = body as { lookups: InboxLookup[] };
    expect(lookups.map(({ id, hash, verdict, fault, status }) => ({ id, hash, verdict, fault, status }))).toEqual([
      { id: 3, hash: SANDBOX_FAULT_HASHES['http-status'], verdict: 'fault', fault: 'http-status', status: 503 },
      { id: 2, hash: SANDBOX_NOT_DETECTED_HASH, verdict: 'not_detected', fault: undefined, status: 200 },
      { id: 1, hash: EICAR_RECORD.sha256, verdict: 'malicious', fault: undefined, status: 200 },
    ]);
    expect(JSON.stringify(body)).not.toContain(box.apiKey);
  });

  it('clears messages and lookups apart; ids go on after a clear', async () => {
    const box = await start();
    await smsClient(box).send(otp('123456'));
    await fetch(`${box.hashScanUrl}/hash_scan?api_key=${box.apiKey}&hash=${SANDBOX_NOT_DETECTED_HASH}`);
    const cleared = await fetch(`${box.inboxUrl}/api/messages`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect(await inboxGet(box, '/api/messages')).toMatchObject({ body: { messages: [] } });
    expect(await inboxGet(box, '/api/lookups')).toMatchObject({ body: { lookups: [{ id: 1 }] } });
    expect((await fetch(`${box.inboxUrl}/api/lookups`, { method: 'DELETE' })).status).toBe(204);
    expect(await inboxGet(box, '/api/lookups')).toMatchObject({ body: { lookups: [] } });
    await smsClient(box).send(otp('654321'));
    expect(await inboxGet(box, '/api/messages')).toMatchObject({
      body: { messages: [{ id: 2, verificationCode: '654321' }] },
    });
    // The sandbox's own record is not the inbox: it keeps everything.
    expect(box.messages).toHaveLength(2);
    expect((await fetch(`${box.inboxUrl}/api/messages`, { method: 'POST' })).status).toBe(405);
  });
});

describe('waiting for the next message', () => {
  it('answers 204 once the time-out passes with no message', async () => {
    const box = await start();
    const started = performance.now();
    const { status, body } = await inboxGet(box, '/api/messages/next?timeout=300');
    expect(status).toBe(204);
    expect(body).toBeUndefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('answers as soon as a message arrives, and only one sent to the phone asked for', async () => {
    const box = await start();
    await smsClient(box).send(otp('000000'));
    // `after=1`: whether the wait reaches the server before or after the sends, the answer is the same.
    const waiting = inboxGet(box, '/api/messages/next?after=1&timeout=20000&phone=13900139000');
    await smsClient(box).send(otp('111111', '13800138000'));
    await smsClient(box).send(otp('222222', '13900139000'));
    expect(await waiting).toMatchObject({ status: 200, body: { id: 3, verificationCode: '222222' } });
  });

  it('after a clear, waits for a new message instead of answering with an old one', async () => {
    const box = await start();
    await smsClient(box).send(otp('111111'));
    await fetch(`${box.inboxUrl}/api/messages`, { method: 'DELETE' });
    // `after=0` asks for anything with an id above 0: the cleared message is gone, so it waits.
    expect(await inboxGet(box, '/api/messages/next?after=0&timeout=200')).toMatchObject({ status: 204 });
    const waiting = inboxGet(box, '/api/messages/next?after=0&timeout=20000');
    await smsClient(box).send(otp('222222'));
    expect(await waiting).toMatchObject({ status: 200, body: { id: 2, verificationCode: '222222' } });
  });

  it('answers at once with a message already there after the id given', async () => {
    const box = await start();
    await smsClient(box).send(otp('111111'));
    await smsClient(box).send(otp('222222'));
    expect(await inboxGet(box, '/api/messages/next?after=1&timeout=0')).toMatchObject({ body: { id: 2 } });
    expect(await inboxGet(box, '/api/messages/next?after=2&timeout=0')).toMatchObject({ status: 204 });
    expect(await inboxGet(box, '/api/messages/next?timeout=-1')).toMatchObject({ status: 400 });
    expect(await inboxGet(box, '/api/messages/next?timeout=999999999')).toMatchObject({ status: 400 });
  });

  it('ends a wait cleanly when the sandbox closes', async () => {
    const box = await start();
    const waiting = fetch(`${box.inboxUrl}/api/messages/next?timeout=60000`).then(
      (response) => response.status,
      () => 'cut',
    );
    await inboxGet(box, '/api/messages');
    await box.close();
    expect(await waiting).toBe('cut');
  });
});
