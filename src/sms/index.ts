export { SmsError, type SmsErrorCode, type SmsErrorInit, type SmsOutcome } from '../errors/sms-error.js';
export { SMS_ERROR_CATEGORIES, type SmsErrorCategory, smsErrorCategory } from '../errors/sms-error-categories.js';
export type { ExpiryTime } from '../secrets/credentials.js';
export { estimateSmsCount, renderTemplate } from './billing.js';
export type { SmsMethod } from './outgoing-request.js';
export { MAX_PHONE_NUMBERS } from './phone-numbers.js';
export type { SendSmsRequest } from './send-request.js';
export type { SendSmsResult } from './send-result.js';
export {
  canonicalQuery,
  computeSignature,
  explainSignature,
  maskedStringToSign,
  percentEncode,
  type SignatureExplanation,
  stringToSign,
  verifySignature,
} from './signing/index.js';
export { type SendSmsOptions, SmsClient, type SmsClientOptions } from './sms-client.js';
export type { SmsCredentials, SmsCredentialsProvider } from './sms-credentials.js';
export type { SmsStats } from './sms-stats.js';
export type { TemplateParams } from './template-param.js';
