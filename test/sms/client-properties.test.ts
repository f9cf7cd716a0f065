import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useMswServer } from '../helpers/msw.js';
import { makeClient, serveSms } from './sms-service.js';

const server = useMswServer();

/** Full-range code points, never a lone surrogate. */
const text = fc.string({ unit: 'binary', maxLength: 16 });
/** A mainland mobile number, as its 11 national digits. */
// Mainland mobile ranges every number of which is possible (`1[3-9]…` is not: 179… is no mobile range).
const mobile = fc.stringMatching(/^1(3[0-9]|5[0-35-9]|8[0-9])[0-9]{8}$/);
/** One mainland number in one of the spellings that mean it: national, `+86`, `86`, `0086`. */
const spelled = fc.tuple(mobile, fc.constantFrom('', '+86', '86', '0086'));

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
        fc.uniqueArray(spelled, { minLength: 1, maxLength: 3, selector: ([national]) => national }),
        async (method, templateParam, signName, outId, numbers) => {
          received.length = 0;
          const phoneNumbers = numbers.map(([national, prefix]) => `${prefix}${national}`);
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
          // Each number is sent in the vendor's domestic form, whatever its spelling.
          expect(request?.params.PhoneNumbers).toBe(numbers.map(([national]) => national).join(','));
        },
      ),
      { numRuns: 150 },
    );
  });
});
