/**
 * `hashscan-sms/testing`: test doubles of both services, built from their
 * specs, so you can test your own code (including its fail-closed paths)
 * without the real services.
 *
 * - {@link createHashScanHandlers} / {@link createSmsHandlers}: msw 2 handlers
 *   (msw is an optional peer dependency, needed by this entry point).
 * - {@link startSandbox}: a real `node:http` server on loopback with the same
 *   logic and real network faults.
 *
 * @packageDocumentation
 */

export { UNCHECKED_TEMPLATE_CODE } from './aksk-send.js';
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
} from './defaults.js';
export type { ServiceHandler, ServiceReply, ServiceRequest, ServiceResponse } from './exchange.js';
export { HASH_SCAN_FAULT_KINDS, type HashScanFault, type HashScanFaultKind } from './hash-faults.js';
export { createHashLookupService, type HashScanServiceOptions } from './hash-lookup-service.js';
export {
  createHashScanHandlers,
  createSmsHandlers,
  type HandlerOptions,
  type HashScanHandlerOptions,
  type HashScanHandlers,
  type SmsHandlerOptions,
  type SmsHandlers,
} from './msw-handlers.js';
export { type HashRecord, type RecordForOptions, recordFor } from './records.js';
export type { RecordedRequest, RequestSink } from './request-log.js';
export { routeSmsRequest, type SmsMode, type SmsRoute } from './routing.js';
export { type Sandbox, type SandboxOptions, startSandbox } from './sandbox.js';
export { DEFAULT_TIMESTAMP_TOLERANCE_MS, SANDBOX_FAULT_PHONE_NUMBERS, SANDBOX_SMS_FAULTS } from './sms-checks.js';
export {
  createSmsService,
  type SentMessage,
  type SmsAccount,
  type SmsServiceOptions,
  type SmsSinks,
} from './sms-service.js';
export { substituteTemplate } from './templates.js';
