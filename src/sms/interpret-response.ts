import { SmsError, type SmsErrorCode, type SmsErrorInit, type SmsOutcome } from '../errors/sms-error.js';
import { parseStrictJson, StrictJsonError } from '../json/strict-parse.js';
import type { Redactor } from '../secrets/redact.js';
import type { IncomingResponse } from '../transport/call/exchange.js';
import { parseRetryAfter } from '../transport/http/retry-after.js';
import { describeResponseIssues, ENGLISH, type SendSmsResponse, sendSmsResponseSchema } from './response-schema.js';
import type { SendSmsResult } from './send-result.js';

/** What {@link interpretSendResponse} needs besides the response. */
export interface InterpretContext {
  /** Hides the secret, this send's signatures and the key id. */
  readonly redact: Redactor;
  /** Whether an earlier attempt of this send may have reached the service. */
  readonly mayHaveSent: boolean;
  /** The masked string-to-sign of this attempt, attached to a `SignatureDoesNotMatch`. */
  readonly stringToSign?: (() => string) | undefined;
}

const BODY_EXCERPT = 512;

/** The answer, if it has the service's shape; otherwise what is wrong with it. */
function readBody(text: string): { response: SendSmsResponse } | { issues: string[] } {
  let json: unknown;
  try {
    const read = parseStrictJson(text);
    // `"Code":"OK","Code":"isv.…"` said two things: neither is believed.
    if (read.duplicates.length > 0) {
      return {
        issues: read.duplicates.slice(0, 8).map(({ path, key }) => `${[...path, key].join('.')}: repeated field`),
      };
    }
    json = read.value;
  } catch (error) {
    return {
      issues: [
        error instanceof StrictJsonError && error.kind === 'depth' ? 'body: nested too deep' : 'body: not valid JSON',
      ],
    };
  }
  const parsed = sendSmsResponseSchema.safeParse(json, ENGLISH);
  return parsed.success ? { response: parsed.data } : { issues: describeResponseIssues(parsed.error) };
}

/**
 * Turns one HTTP response into a result. Success is HTTP 2xx with
 * `Code: "OK"` and nothing else; every other answer throws.
 *
 * @throws {SmsError} the service's own `Code` (outcome `rejected`),
 *   `MethodNotAllowed` for HTTP 405, `HTTP_STATUS` for a non-2xx answer
 *   without the service's shape, `INVALID_RESPONSE` for a 2xx answer without
 *   it or for `Code: "OK"` with a non-2xx status (outcome `unknown` for both).
 */
export function interpretSendResponse(response: IncomingResponse, context: InterpretContext): SendSmsResult {
  const { redact } = context;
  const { status, attempt } = response;
  const is2xx = status >= 200 && status <= 299;
  const read = readBody(response.text);
  const fail = (
    code: SmsErrorCode,
    outcome: SmsOutcome,
    message: string,
    extra: Pick<SmsErrorInit, 'issues' | 'body' | 'retryAfterMs' | 'stringToSign'> = {},
  ): SmsError =>
    new SmsError({
      code,
      // A send that may have gone out on an earlier attempt stays "unknown" whatever this attempt says.
      outcome: context.mayHaveSent ? 'unknown' : outcome,
      message: redact(message),
      attempts: attempt,
      status,
      ...('response' in read && {
        requestId: redact(read.response.RequestId),
        serviceMessage: redact(read.response.Message),
      }),
      ...extra,
    });

  if (status === 405) {
    throw fail('MethodNotAllowed', 'rejected', `the service answered HTTP 405 MethodNotAllowed`);
  }
  if ('issues' in read) {
    const issues = read.issues.map(redact);
    const body = redact(response.text).slice(0, BODY_EXCERPT);
    if (is2xx) {
      throw fail('INVALID_RESPONSE', 'unknown', `the response is not a service answer: ${issues.join('; ')}`, {
        issues,
        body,
      });
    }
    throw fail('HTTP_STATUS', 'unknown', `the service answered HTTP ${status} without a service response`, {
      issues,
      body,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
    });
  }

  const answer = read.response;
  if (answer.Code !== 'OK') {
    const mismatch = answer.Code === 'SignatureDoesNotMatch' ? context.stringToSign?.() : undefined;
    throw fail(redact(answer.Code), 'rejected', `the service refused the send: ${answer.Code}: ${answer.Message}`, {
      stringToSign: mismatch,
    });
  }
  if (!is2xx) {
    throw fail(
      'INVALID_RESPONSE',
      'unknown',
      `the service answered Code "OK" with HTTP ${status}; the message may have been sent`,
    );
  }
  // Masked as the error fields are: a service may echo the request, and a result is shown and logged too.
  return Object.freeze({
    code: 'OK',
    message: redact(answer.Message),
    requestId: redact(answer.RequestId),
    attempts: attempt,
  });
}
