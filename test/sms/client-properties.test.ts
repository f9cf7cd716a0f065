import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useMswServer } from '../helpers/msw.js';
import { makeClient, serveSms } from './sms-service.js';

const server = useMswServer();

/** Full-range code points, never a lone surrogate. */
const text = fc.string({ unit: 'binary', maxLength: 16 });
/** Any number of the accepted shape: an optional `+`, 5 to 20 digits. */
const phoneNumber = fc.stringMatching(/^\+?[0-9]{5,20}$/);

describe('any Unicode input round-trips through the server-side signature check', () => {
  it('for both methods: templateParam, signName, outId and phone numbers arrive intact and verify', async () => {
    const received = serveSms(server);
    const client = makeClient({ retry: false });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST' as const),
        fc.dictionary(text, text, { maxKeys: 4 }),
        text,
        text,
        fc.uniqueArray(phoneNumber, { minLength: 1, maxLength: 3 }),
        async (method, templateParam, signName, outId, phoneNumbers) => {
          received.length = 0;
          const result = await client.send(
            { phoneNumbers, templateCode: 'SMS_1', templateParam, signName, outId },
            { method: method as 'GET' | 'POST' },
          );
          expect(result.code).toBe('OK');
          const [request] = received;
          expect(request?.method).toBe(method);
          expect(request?.signatureValid).toBe(true);
          expect(request?.wire).not.toContain('+');
          expect(JSON.parse(request?.params.TemplateParam ?? '')).toEqual(JSON.parse(JSON.stringify(templateParam)));
          expect(request?.params.SignName).toBe(signName === '' ? undefined : signName);
          expect(request?.params.OutId).toBe(outId === '' ? undefined : outId);
          expect(request?.params.PhoneNumbers).toBe(phoneNumbers.join(','));
        },
      ),
      { numRuns: 150 },
    );
  });
});
