/**
 * `hashscan-sms/sandbox`: both services as a real HTTP server on loopback
 * ({@link startSandbox}), with their data (`SANDBOX_*` constants) and the
 * service logic as plain functions. Loads no msw, so it works in projects
 * that do not install it (local runs, demos, other languages' clients).
 * `hashscan-sms/testing` re-exports all of it next to the msw handlers.
 *
 * @packageDocumentation
 */

export { UNCHECKED_TEMPLATE_CODE } from '../testing/aksk-send.js';
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
} from '../testing/defaults.js';
export type { ServiceHandler, ServiceReply, ServiceRequest, ServiceResponse } from '../testing/exchange.js';
export { HASH_SCAN_FAULT_KINDS, type HashScanFault, type HashScanFaultKind } from '../testing/hash-faults.js';
export { createHashLookupService, type HashScanServiceOptions } from '../testing/hash-lookup-service.js';
export { type HashRecord, type RecordForOptions, recordFor } from '../testing/records.js';
export type { RecordedRequest, RequestSink } from '../testing/request-log.js';
export { routeSmsRequest, type SmsMode, type SmsRoute } from '../testing/routing.js';
export {
  DEFAULT_TIMESTAMP_TOLERANCE_MS,
  SANDBOX_FAULT_PHONE_NUMBERS,
  SANDBOX_SMS_FAULTS,
} from '../testing/sms-checks.js';
export {
  createSmsService,
  type SentMessage,
  type SmsAccount,
  type SmsServiceOptions,
  type SmsSinks,
} from '../testing/sms-service.js';
export { substituteTemplate } from '../testing/templates.js';
export { type Sandbox, type SandboxOptions, startSandbox } from './start-sandbox.js';
