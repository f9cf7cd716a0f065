import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { useMswServer } from '../helpers/msw.js';
import { BASE_URL, makeClient, REQUEST, rejection } from './sms-service.js';

const server = useMswServer();

/** Answers every send with `text` (HTTP 200) and counts the requests. */
function answerWith(text: string): () => number {
  let count = 0;
  server.use(
    http.all(`${BASE_URL}/`, () => {
      count += 1;
      return new HttpResponse(text, { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return () => count;
}

describe('SmsClient: answers JSON.parse misreads', () => {
  it.each([
    [
      'Code OK then an error',
      '{"Code":"OK","Code":"isv.BUSINESS_LIMIT_CONTROL","Message":"OK","RequestId":"r"}',
      'Code',
    ],
    [
      'an error then Code OK',
      '{"Code":"isv.BUSINESS_LIMIT_CONTROL","Code":"OK","Message":"OK","RequestId":"r"}',
      'Code',
    ],
    ['a nested repetition', '{"Code":"OK","Message":"OK","RequestId":"r","Extra":{"a":1,"a":2}}', 'Extra.a'],
  ])('%s: INVALID_RESPONSE, outcome unknown, sent once', async (_name, text, field) => {
    const count = answerWith(text);
    const error = await rejection(makeClient({ retryUnknownOutcome: true }).send(REQUEST));
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', outcome: 'unknown', issues: [`${field}: repeated field`] });
    expect(count()).toBe(1);
  });

  it('a body nested 100 000 levels deep is INVALID_RESPONSE, not a RangeError', async () => {
    answerWith(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const error = await rejection(makeClient().send(REQUEST));
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', outcome: 'unknown', issues: ['body: nested too deep'] });
  });
});
