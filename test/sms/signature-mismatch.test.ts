import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { explainSignature, maskedStringToSign, stringToSign } from '../../src/sms/signing/index.js';
import { useMswServer } from '../helpers/msw.js';
import { ACCESS_KEY_ID, makeClient, REQUEST, rejection, serveSms } from './sms-service.js';

const server = useMswServer();
const WRONG_SECRET = 'wrong-secret-value-9876';
const OTP = '4711';
const PHONE = '13912345678';

describe('SignatureDoesNotMatch', () => {
  it.each(['POST', 'GET'] as const)(
    'carries the masked string-to-sign of the attempt (%s), and never the secret',
    async (method) => {
      const received = serveSms(server);
      const client = makeClient({ accessKeySecret: WRONG_SECRET, method });
      const error = await rejection(client.send({ ...REQUEST, phoneNumbers: PHONE, templateParam: { code: OTP } }));
      expect(error).toMatchObject({ code: 'SignatureDoesNotMatch', category: 'auth', outcome: 'rejected' });
      const sent = received[0]?.params ?? {};
      expect(received[0]?.signatureValid).toBe(false);

      // Exactly what was signed, but for the masked values.
      const real = stringToSign(method, sent);
      const shown = error.stringToSign ?? '';
      expect(shown.startsWith(`${method}&%2F&`)).toBe(true);
      expect(shown).toContain('PhoneNumbers%3D1391***%26');
      expect(shown).toContain('TemplateParam%3D***%26');
      expect(shown).toContain(`Timestamp%3D${encodeURIComponent(encodeURIComponent(sent.Timestamp ?? ''))}`);
      const unmasked = shown
        .replace('1391***', encodeURIComponent(encodeURIComponent(PHONE)))
        .replace(
          'TemplateParam%3D***',
          `TemplateParam%3D${encodeURIComponent(encodeURIComponent(sent.TemplateParam ?? ''))}`,
        )
        .replace(/AccessKeyId%3D[^%]*\*\*\*/, `AccessKeyId%3D${ACCESS_KEY_ID}`);
      expect(unmasked).toBe(real);

      const everything = [shown, error.message, error.stack, JSON.stringify(error), inspect(error, { depth: 9 })].join(
        '\n',
      );
      for (const leak of [WRONG_SECRET, PHONE, OTP, ACCESS_KEY_ID, sent.Signature ?? 'x']) {
        expect(everything).not.toContain(leak);
        expect(everything).not.toContain(encodeURIComponent(leak));
      }
    },
  );

  it('other refusals carry no string-to-sign', async () => {
    serveSms(server);
    const error = await rejection(makeClient().send({ ...REQUEST, templateParam: '{not json' }));
    expect(error.code).toBe('InvalidParameter');
    expect(error.stringToSign).toBeUndefined();
  });
});

describe('explainSignature / maskedStringToSign', () => {
  const params = {
    Action: 'SendSms',
    PhoneNumbers: '138 0000',
    Signature: 'ignored',
    Timestamp: '2024-05-01T08:09:10Z',
  };

  it('gives the canonical query, the string-to-sign and (with a secret) the signature', () => {
    const explained = explainSignature('GET', params, 'secret');
    expect(explained).toEqual({
      canonicalQuery: 'Action=SendSms&PhoneNumbers=138%200000&Timestamp=2024-05-01T08%3A09%3A10Z',
      stringToSign: stringToSign('GET', params),
      signature: expect.any(String),
    });
    expect(explainSignature('GET', params).signature).toBeUndefined();
  });

  it('masks only what it is told to, keeping order and encoding', () => {
    const masked = maskedStringToSign('POST', params, (name) => (name === 'PhoneNumbers' ? '<phone>' : undefined));
    expect(masked).toBe(
      'POST&%2F&Action%3DSendSms%26PhoneNumbers%3D<phone>%26Timestamp%3D2024-05-01T08%253A09%253A10Z',
    );
  });
});
