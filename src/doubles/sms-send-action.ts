import { randomUUID } from 'node:crypto';
import { estimateSmsCount } from '../sms/billing.js';
import { verifySignature } from '../sms/signing/verify-signature.js';
import type { SentMessage, SmsAccount } from './sms-account.js';
import { isAnswer, type SmsAnswer, smsFailure, smsSuccess } from './sms-answer.js';
import { faultFor, type ReplayGuard } from './sms-checks.js';
import { substituteTemplate } from './templates.js';

/** The template code whose template is never checked, only its signature (spec part 2). */
export const UNCHECKED_TEMPLATE_CODE = 'SMS_500650100';

/** What the AK/SK mode needs to know, resolved from the options. */
export interface AkskContext {
  readonly accounts: ReadonlyMap<string, SmsAccount>;
  readonly templates: Readonly<Record<string, string | null>>;
  readonly defaultSignName: string;
  /** The clock, timestamp tolerance and used nonces. */
  readonly guard: ReplayGuard;
  /** Phone number → the `Code` a send to it is refused with. */
  readonly faults: Readonly<Record<string, string>>;
}

type Params = Readonly<Record<string, string>>;

const PHONE_NUMBER = /^\+?\d{1,20}$/;

/** A present, non-empty parameter. */
const given = (params: Params, name: string): string | undefined => {
  const value = Object.hasOwn(params, name) ? params[name] : undefined;
  return value === '' ? undefined : value;
};

/** A signature that cannot even be computed (say, a lone surrogate) does not match either. */
function signatureMatches(method: string, params: Params, secret: string): boolean {
  try {
    return verifySignature(method, params, secret);
  } catch {
    return false;
  }
}

/** Who signed the request, checked before any other parameter (spec part 5). */
function authenticate(context: AkskContext, method: string, params: Params): SmsAccount | SmsAnswer {
  if (given(params, 'Signature') === undefined) return smsFailure('MissingSignature', 'Signature is required');
  const accessKeyId = given(params, 'AccessKeyId');
  if (accessKeyId === undefined) return smsFailure('MissingAccessKeyId', 'AccessKeyId is required');
  const account = context.accounts.get(accessKeyId);
  if (account === undefined) return smsFailure('InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
  if (!signatureMatches(method, params, account.accessKeySecret)) {
    return smsFailure('SignatureDoesNotMatch', 'Specified signature does not match our calculation.');
  }
  return account;
}

/** The signature that goes out: free accounts always get the default one (spec part 8). */
function applySignName(context: AkskContext, account: SmsAccount, requested: string | undefined): string | SmsAnswer {
  if (account.plan === 'free' || requested === undefined) return context.defaultSignName;
  if (account.signPrefix !== undefined && !requested.startsWith(account.signPrefix)) {
    return smsFailure('isv.SMS_SIGNATURE_ILLEGAL', 'SignName is not allowed for this account');
  }
  return requested;
}

/** The substituted content, `undefined` when it is not known (unchecked code, content not held). */
function render(context: AkskContext, templateCode: string, templateParam: unknown): string | undefined | SmsAnswer {
  if (templateCode === UNCHECKED_TEMPLATE_CODE) return undefined;
  const template = Object.hasOwn(context.templates, templateCode) ? context.templates[templateCode] : undefined;
  if (template === undefined) return smsFailure('isv.SMS_TEMPLATE_ILLEGAL', 'Unknown TemplateCode');
  if (template === null) return undefined;
  if (typeof templateParam !== 'object' || templateParam === null || Array.isArray(templateParam)) {
    return smsFailure('InvalidParameter', 'TemplateParam must be a JSON object');
  }
  const filled = substituteTemplate(template, templateParam as Record<string, unknown>);
  if (filled.missing.length > 0) {
    return smsFailure('isv.TEMPLATE_MISSING_PARAMETERS', `TemplateParam lacks ${filled.missing.join(', ')}`);
  }
  return filled.content;
}

/**
 * One `SendSms` in the AK/SK mode: authenticate, check the parameters, fill
 * the template, bill, and hand the accepted message to `accept`.
 */
export function sendSms(
  context: AkskContext,
  method: 'GET' | 'POST',
  params: Params,
  accept: (message: SentMessage) => void,
): SmsAnswer {
  const account = authenticate(context, method, params);
  if (isAnswer(account)) return account;
  if (params.Action !== 'SendSms') return smsFailure('InvalidAction.NotFound', 'Action must be SendSms');
  const stale = context.guard.check(params);
  if (stale !== undefined) return stale;

  const phoneNumbersParam = given(params, 'PhoneNumbers');
  const templateCode = given(params, 'TemplateCode');
  const templateParamText = given(params, 'TemplateParam');
  if (phoneNumbersParam === undefined) return smsFailure('MissingPhoneNumbers', 'PhoneNumbers is required');
  if (templateCode === undefined) return smsFailure('MissingTemplateCode', 'TemplateCode is required');
  if (templateParamText === undefined) return smsFailure('MissingTemplateParam', 'TemplateParam is required');

  const phoneNumbers = phoneNumbersParam.split(',').map((number) => number.trim());
  const fault = faultFor(context.faults, phoneNumbers);
  if (fault !== undefined) return fault;
  if (!phoneNumbers.every((number) => PHONE_NUMBER.test(number))) {
    return smsFailure('isv.MOBILE_NUMBER_ILLEGAL', 'PhoneNumbers must be phone numbers separated by commas');
  }
  let templateParam: unknown;
  try {
    templateParam = JSON.parse(templateParamText);
  } catch {
    return smsFailure('InvalidParameter', 'TemplateParam is not valid JSON');
  }
  const signName = applySignName(context, account, given(params, 'SignName'));
  if (isAnswer(signName)) return signName;
  const content = render(context, templateCode, templateParam);
  if (isAnswer(content)) return content;

  const requestId = randomUUID();
  // The client's own estimate is the spec's rule: 1 per 50 code points, else 1.
  const segments = estimateSmsCount(content);
  accept(
    Object.freeze({
      requestId,
      accessKeyId: account.accessKeyId,
      phoneNumbers: Object.freeze(phoneNumbers),
      signName,
      templateCode,
      templateParam,
      content,
      segments,
      billedCount: segments * phoneNumbers.length,
      method,
      receivedAt: new Date(context.guard.now()),
    }),
  );
  return smsSuccess(requestId);
}
