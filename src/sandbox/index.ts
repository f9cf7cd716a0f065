/**
 * `hashscan-sms/sandbox`: both services as a real HTTP server on loopback
 * ({@link startSandbox}), with their data (`SANDBOX_*` constants) and the
 * service logic as plain functions. Loads no msw, so it works in projects
 * that do not install it (local runs, demos, other languages' clients).
 * `hashscan-sms/testing` re-exports all of it next to the msw handlers.
 *
 * @packageDocumentation
 */

export {
  EICAR_RECORD,
  SANDBOX_ACCOUNTS,
  SANDBOX_API_KEY,
  SANDBOX_DEFAULT_SIGN_NAME,
  SANDBOX_FAULT_HASHES,
  SANDBOX_HASH_FAULTS,
  SANDBOX_HASH_RECORDS,
  SANDBOX_NOT_DETECTED_HASH,
  SANDBOX_SMS_ACCOUNTS,
  SANDBOX_TEMPLATES,
} from '../doubles/defaults.js';
export { eicarTestFile } from '../doubles/eicar.js';
export { HASH_SCAN_FAULT_KINDS, type HashScanFault, type HashScanFaultKind } from '../doubles/hash-faults.js';
export { createHashLookupService, type HashScanServiceOptions } from '../doubles/hash-lookup-service.js';
export { type HashRecord, type RecordForOptions, recordFor } from '../doubles/records.js';
export type { RecordedRequest, RequestSink } from '../doubles/request-log.js';
export { routeSmsRequest, type SmsMode, type SmsRoute } from '../doubles/routing.js';
export type { ServiceHandler, ServiceReply, ServiceRequest, ServiceResponse } from '../doubles/service-handler.js';
export {
  DEFAULT_TIMESTAMP_TOLERANCE_MS,
  SANDBOX_FAULT_PHONE_NUMBERS,
  SANDBOX_SMS_FAULTS,
} from '../doubles/sms-checks.js';
export { UNCHECKED_TEMPLATE_CODE } from '../doubles/sms-send-action.js';
export {
  createSmsService,
  type SentMessage,
  type SmsAccount,
  type SmsServiceOptions,
  type SmsSinks,
} from '../doubles/sms-service.js';
export { substituteTemplate } from '../doubles/templates.js';
export { DEFAULT_INBOX_LIMIT, type InboxLookup, type InboxMessage, type InboxOptions } from './inbox/index.js';
export { type Sandbox, type SandboxOptions, startSandbox } from './start-sandbox.js';
