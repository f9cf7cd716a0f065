import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { stringToSign } from '../sms/signing/string-to-sign.js';
import { SANDBOX_DEFAULT_SIGN_NAME, SANDBOX_SMS_ACCOUNTS, SANDBOX_TEMPLATES } from './defaults.js';
import { maskParams, type RequestSink } from './request-log.js';
import { routeSmsRequest, type SmsMode } from './routing.js';
import { respond, type ServiceHandler } from './service-handler.js';
import type { SentMessage, SmsAccount } from './sms-account.js';
import { type SmsAnswer, smsFailure } from './sms-answer.js';
import { createReplayGuard, DEFAULT_TIMESTAMP_TOLERANCE_MS, SANDBOX_SMS_FAULTS } from './sms-checks.js';
import { readSmsParams } from './sms-params.js';
import { type AkskContext, sendSms } from './sms-send-action.js';

export type { SentMessage, SmsAccount } from './sms-account.js';

/** What the SMS double knows. Every field is optional; left out, it takes the sandbox default. */
export interface SmsServiceOptions {
  /** The accounts whose keys sign: **replaces** the default ones (spread `SANDBOX_SMS_ACCOUNTS` to keep them). @defaultValue {@link SANDBOX_SMS_ACCOUNTS} (one member, one free account) */
  readonly accounts?: readonly SmsAccount[] | undefined;
  /**
   * Template code → content with `${name}` placeholders, or `null` for a
   * template whose content the back office does not hold (billed 1 per send).
   * `SMS_500650100` needs no entry: only its signature is checked.
   * **Replaces** the default templates: spread `SANDBOX_TEMPLATES` to keep them.
   * @defaultValue {@link SANDBOX_TEMPLATES}
   */
  readonly templates?: Readonly<Record<string, string | null>> | undefined;
  /** The system default signature: used when `SignName` is omitted, and always for free accounts. @defaultValue `'Sandbox'` */
  readonly defaultSignName?: string | undefined;
  /**
   * The fault switch: phone number → the error `Code` a correctly signed
   * send to it is refused with (HTTP 400, nothing sent). **Replaces** the
   * default table (the `SANDBOX_FAULT_PHONE_NUMBERS` then send normally):
   * spread `SANDBOX_SMS_FAULTS` to add your own to it.
   * @defaultValue {@link SANDBOX_SMS_FAULTS} (one number per error category, see `SANDBOX_FAULT_PHONE_NUMBERS`)
   * @example
   * ```ts
   * { faults: { ...SANDBOX_SMS_FAULTS, '13800000009': 'isv.DAY_LIMIT_CONTROL' } }
   * ```
   */
  readonly faults?: Readonly<Record<string, string>> | undefined;
  /**
   * How far the double's clock is from the local one, in ms: `20 * 60_000`
   * plays a server 20 minutes ahead. The double's `Date` header and its
   * `Timestamp` check use this clock.
   * @defaultValue 0
   */
  readonly clockOffsetMs?: number | undefined;
  /**
   * A `Timestamp` further than this from the double's clock is refused with
   * `InvalidTimeStamp.Expired`.
   * @defaultValue 900000 (15 minutes, as the vendor)
   */
  readonly timestampToleranceMs?: number | undefined;
}

/** Where the SMS double writes what it saw and what it sent. */
export interface SmsSinks {
  /** Called with every request, answered or refused, secrets masked; for an accepted send, right after `messages`. */
  readonly requests: RequestSink;
  /** Called with each accepted message, during the call that answers it. */
  readonly messages: (message: SentMessage) => void;
}

const accountSchema = z.object({
  accessKeyId: z.string().check(z.minLength(1)),
  accessKeySecret: z.string().check(z.minLength(1)),
  plan: z.enum(['free', 'member']),
  signPrefix: z.optional(z.string()),
});
const MODE_NAMES: Readonly<Record<Exclude<SmsMode, 'aksk'>, string>> = {
  'third-party-gateway': 'the third-party SMS gateway protocol',
  'second-vendor': "the second cloud vendor's protocol",
  syskey: 'the SysKey mode',
};

function resolveOptions(options: SmsServiceOptions): AkskContext {
  const accounts = new Map<string, SmsAccount>();
  for (const given of options.accounts ?? SANDBOX_SMS_ACCOUNTS) {
    const parsed = accountSchema.safeParse(given, { error: en().localeError });
    if (!parsed.success) throw new ConfigurationError('accounts', parsed.error.issues.map((i) => i.message).join('; '));
    accounts.set(given.accessKeyId, given);
  }
  const defaultSignName = options.defaultSignName ?? SANDBOX_DEFAULT_SIGN_NAME;
  if (typeof defaultSignName !== 'string' || defaultSignName === '') {
    throw new ConfigurationError('defaultSignName', 'must be a non-empty string');
  }
  const clockOffsetMs = options.clockOffsetMs ?? 0;
  if (typeof clockOffsetMs !== 'number' || !Number.isFinite(clockOffsetMs)) {
    throw new ConfigurationError('clockOffsetMs', 'must be a finite number of milliseconds');
  }
  const tolerance = options.timestampToleranceMs ?? DEFAULT_TIMESTAMP_TOLERANCE_MS;
  if (typeof tolerance !== 'number' || !(tolerance >= 0)) {
    throw new ConfigurationError('timestampToleranceMs', 'must be a number of milliseconds, 0 or more');
  }
  const faults = options.faults ?? SANDBOX_SMS_FAULTS;
  if (
    typeof faults !== 'object' ||
    faults === null ||
    !Object.values(faults).every((code) => typeof code === 'string')
  ) {
    throw new ConfigurationError('faults', 'must map phone numbers to error codes (strings)');
  }
  return {
    accounts,
    templates: options.templates ?? SANDBOX_TEMPLATES,
    defaultSignName,
    guard: createReplayGuard(clockOffsetMs, tolerance),
    faults,
  };
}

/**
 * The string to sign over the logged parameters: the same as the one checked
 * unless a value was masked, which then reads `***` instead of leaking. A
 * request that cannot be signed at all (a lone surrogate) has none.
 */
function loggedStringToSign(method: string, logged: Readonly<Record<string, string>>): string | undefined {
  try {
    return stringToSign(method, logged);
  } catch {
    return undefined;
  }
}

/**
 * The SMS address (`/` of the base URL) as a plain function: the routing
 * table, then the AK/SK mode. The msw handlers and the sandbox adapt it.
 *
 * Answers: HTTP 200 `{Code:'OK', Message:'OK', RequestId:<uuid>}` on success.
 * Every failure is `{Code, Message, RequestId:''}`, with HTTP 400 (the spec
 * gives no status) except `MethodNotAllowed` (405) and `ModeNotAvailable`
 * (501, for the gateway, second-vendor and SysKey modes).
 *
 * AK/SK checks, in order (the signature comes before any parameter):
 * `MissingSignature`, `MissingAccessKeyId`, `InvalidAccessKeyId.NotFound`,
 * `SignatureDoesNotMatch` (checked with the method actually used),
 * `InvalidAction.NotFound` (`Action` not `SendSms`), `Missing<Name>` for
 * `PhoneNumbers`/`TemplateCode`/`TemplateParam`, `isv.MOBILE_NUMBER_ILLEGAL`,
 * `InvalidParameter` (`TemplateParam` not JSON, or not an object for a checked
 * template), `isv.SMS_SIGNATURE_ILLEGAL` (member outside its `signPrefix`),
 * `isv.SMS_TEMPLATE_ILLEGAL` (unknown template),
 * `isv.TEMPLATE_MISSING_PARAMETERS` (a placeholder without a value).
 * Right after the signature and `Action`: `InvalidTimeStamp.Format`,
 * `InvalidTimeStamp.Expired` (further than `timestampToleranceMs` from the
 * double's clock), `MissingSignatureNonce`, `SignatureNonceUsed` (a nonce
 * seen before); after `PhoneNumbers` is read, the fault switch (`faults`).
 * Other common parameters (`Format`, `Version`, …) are signed but not
 * otherwise checked: the spec does not give their rules. Every answer has a
 * `Date` header from the double's clock.
 */
export function createSmsService(options: SmsServiceOptions, sinks: SmsSinks): ServiceHandler {
  const context = resolveOptions(options);
  const secrets = [...context.accounts.values()].map((account) => account.accessKeySecret);

  const answer = (method: string, params: Readonly<Record<string, string>>, headers: Headers): SmsAnswer => {
    const route = routeSmsRequest(method, params, headers);
    switch (route) {
      case 'method-not-allowed':
        return smsFailure('MethodNotAllowed', `${method} is not allowed; use GET or POST`, 405, { allow: 'GET, POST' });
      case 'unknown-action':
        return smsFailure('InvalidAction.NotFound', 'A GET request to this address must have Action=SendSms');
      case 'aksk':
        return sendSms(context, method as 'GET' | 'POST', params, sinks.messages);
      default:
        return smsFailure(
          'ModeNotAvailable',
          `the request was routed to ${MODE_NAMES[route]}, which is not available in this sandbox`,
          501,
        );
    }
  };

  return (request) => {
    const params = readSmsParams(request);
    const { code, response: answered } = answer(request.method, params, request.headers);
    // The double's own clock, so a client can learn a skew from it as from the real service.
    const response = {
      ...answered,
      headers: { date: new Date(context.guard.now()).toUTCString(), ...answered.headers },
    };
    const logged = maskParams(params, secrets);
    const toSign = code === 'SignatureDoesNotMatch' ? loggedStringToSign(request.method, logged) : undefined;
    sinks.requests({
      service: 'sms',
      method: request.method,
      path: request.url.pathname,
      params: logged,
      receivedAt: new Date(),
      status: response.status,
      outcome: code,
      ...(toSign === undefined ? {} : { stringToSign: toSign }),
    });
    return respond(response);
  };
}
