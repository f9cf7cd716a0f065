import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { SMS_ERROR_CATEGORIES, SmsError, smsErrorCategory } from '../../src/sms/index.js';
import { useMswServer } from '../helpers/msw.js';
import { BASE_URL, makeClient, REQUEST, rejection } from './sms-service.js';

const server = useMswServer();

describe('error categories', () => {
  it.each([
    ['isv.BUSINESS_LIMIT_CONTROL', 'rate_limit'],
    ['isv.DAY_LIMIT_CONTROL', 'rate_limit'],
    ['isv.MONTH_LIMIT_CONTROL', 'rate_limit'],
    ['isv.MOBILE_NUMBER_ILLEGAL', 'recipient'],
    ['isv.MOBILE_COUNT_OVER_LIMIT', 'recipient'],
    ['isv.SMS_TEMPLATE_ILLEGAL', 'content'],
    ['isv.SMS_SIGNATURE_ILLEGAL', 'content'],
    ['isv.TEMPLATE_MISSING_PARAMETERS', 'content'],
    ['isv.INVALID_JSON_PARAM', 'content'],
    ['isv.PARAM_LENGTH_LIMIT', 'content'],
    ['InvalidParameter', 'content'],
    ['isv.OUT_OF_SERVICE', 'account'],
    ['isv.AMOUNT_NOT_ENOUGH', 'account'],
    ['isp.RAM_PERMISSION_DENY', 'account'],
    ['SignatureDoesNotMatch', 'auth'],
    ['InvalidAccessKeyId.NotFound', 'auth'],
    ['InvalidTimeStamp.Expired', 'auth'],
    ['SignatureNonceUsed', 'auth'],
    ['isp.SYSTEM_ERROR', 'unknown'],
    ['isv.business_limit_control', 'unknown'],
    ['__proto__', 'unknown'],
    ['NETWORK', 'unknown'],
  ])('%s is %s', (code, category) => {
    expect(smsErrorCategory(code)).toBe(category);
    const error = new SmsError({ code, outcome: 'rejected', message: 'x' });
    expect(error.category).toBe(category);
    expect(error.rateLimited).toBe(category === 'rate_limit');
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ category, rateLimited: category === 'rate_limit' });
  });

  it('a client-side InvalidParameter is content, or recipient when it is about the phone numbers', async () => {
    const client = makeClient();
    await expect(client.send({ ...REQUEST, phoneNumbers: [] })).rejects.toMatchObject({
      code: 'InvalidParameter',
      outcome: 'not_sent',
      category: 'recipient',
    });
    await expect(client.send({ ...REQUEST, phoneNumbers: ['138', ''] })).rejects.toMatchObject({
      category: 'recipient',
    });
    await expect(client.send({ ...REQUEST, templateParam: '[1]' })).rejects.toMatchObject({
      code: 'InvalidParameter',
      category: 'content',
    });
  });

  it('every category of the table has codes, and rateLimited is true exactly for rate_limit', () => {
    const categories = new Set(SMS_ERROR_CATEGORIES.values());
    expect([...categories].sort()).toEqual(['account', 'auth', 'content', 'rate_limit', 'recipient']);
    for (const [code, category] of SMS_ERROR_CATEGORIES) {
      expect(new SmsError({ code, outcome: 'rejected', message: '' }).rateLimited).toBe(category === 'rate_limit');
    }
  });

  it.each(['isv.BUSINESS_LIMIT_CONTROL', 'isp.SYSTEM_ERROR', 'Some.NewCode'])(
    'a service code (%s) is rejected and never retried, whatever its category',
    async (code) => {
      let requests = 0;
      server.use(
        http.all(`${BASE_URL}/`, () => {
          requests += 1;
          return HttpResponse.json({ Code: code, Message: 'no', RequestId: 'r' }, { status: 200 });
        }),
      );
      const error = await rejection(makeClient({ retryUnknownOutcome: true }).send(REQUEST));
      expect(error).toMatchObject({ code, outcome: 'rejected' });
      expect(requests).toBe(1);
    },
  );
});
