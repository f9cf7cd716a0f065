/**
 * hashscan-sms: typed, fail-closed clients for a file-hash virus lookup
 * service ({@link HashScanClient}) and an AK/SK-signed template SMS service.
 *
 * @packageDocumentation
 */

// Names that moved to `hashscan-sms/signing` and `hashscan-sms/hashing`, kept here as deprecated aliases.
export {
  canonicalQuery,
  computeSignature,
  explainSignature,
  type FilePath,
  type HashedFile,
  type HashFilesOptions,
  hashFiles,
  maskedStringToSign,
  percentEncode,
  type SignatureExplanation,
  stringToSign,
  type UnreadableFile,
  verifySignature,
} from './deprecated-aliases.js';
export type { SmsDestinations } from './destinations/destination-rules.js';
export {
  SCAN_CHANNEL,
  type ScanTraceContext,
  type ScanTraceResult,
  SEND_CHANNEL,
  type SendTraceContext,
  type SendTraceResult,
  type TraceError,
} from './diagnostics/tracing-channels.js';
export { ConfigurationError } from './errors/configuration-error.js';
export { HashScanError, type HashScanErrorCode, type HashScanErrorInit } from './errors/hashscan-error.js';
export { HashScanSmsError, type HashScanSmsErrorInit } from './errors/hashscan-sms-error.js';
export { SigningError } from './errors/signing-error.js';
export type {
  FleetOptions,
  HashScanFleetOptions,
  SmsFleetOptions,
} from './fleet-plugin/fleet-options.js';
export type { FleetPlugin } from './fleet-plugin/fleet-plugin.js';
export type { FleetStats, SmsFleetStats } from './fleet-plugin/fleet-stats.js';
export {
  type Digests,
  EncodedBodyError,
  type HashAlgorithm,
  type HashUploadOptions,
  hashBytes,
  hashFile,
  hashStream,
  hashUpload,
  TruncatedStreamError,
  type UploadBody,
} from './hashing/index.js';
export type { ApiKeyProvider, ExpiringApiKey } from './hashscan/api-key.js';
export type { SharedCacheOptions } from './hashscan/cache/bounded-store.js';
export type { ScanCacheOptions } from './hashscan/cache/scan-cache.js';
export type { CacheStats } from './hashscan/cache/verdict-cache.js';
export {
  type Decision,
  type DecisionPolicy,
  type DecisionReason,
  decide,
  decideWithReason,
  type ExplainableOutcome,
  type ExplainedDecision,
} from './hashscan/decide.js';
export { HashScanClient } from './hashscan/hashscan-client.js';
export type {
  HashScanClientOptions,
  HashScanStats,
  ScanIterableOptions,
  ScanManyOptions,
  ScanOptions,
  ScanProgress,
  ScanStreamProgress,
} from './hashscan/scan-options.js';
export type { FileScanOutcome, ScanFileOptions } from './hashscan/scan-outcome.js';
export type {
  IndexedScanOutcome,
  MaliciousResult,
  NotDetectedResult,
  ScanErrorOutcome,
  ScanOutcome,
  ScanResult,
  ThreatData,
} from './hashscan/scan-result.js';
export type { CallerLimits, LimitStoreFailure, RecipientLimits, SmsLimitsOptions } from './limits/limits-options.js';
export type { SmsLimitsStats } from './limits/send-limits.js';
export { type LogFields, type Logger, type ObjectFirstLogger, objectFirstLogger } from './observe/logger.js';
export type { OtpSmsSender, OtpVerifierOptions } from './otp/otp-options.js';
export {
  type OtpCheckReason,
  type OtpCheckRequest,
  type OtpCheckResult,
  type OtpSendRequest,
  type OtpSendResult,
  OtpVerifier,
} from './otp/otp-verifier.js';
export type { PumpingGuardOptions } from './otp/pumping-guard.js';
export type { PhoneRegion } from './phone/canonical-phone.js';
export type {
  FleetRedisClient,
  IoRedisLike,
  IoRedisQueueOption,
  NodeRedisLike,
  NodeRedisQueueOption,
} from './redis/redis-link.js';
export { redactUrlParams, SECRET_QUERY_PARAMS } from './secrets/redact-url-params.js';
export * from './sms/index.js';
export type { SharedStore } from './store/shared-store.js';
export type {
  MeterProviderLike,
  TelemetryOptions,
  TelemetrySetting,
  TracerProviderLike,
} from './telemetry/telemetry-options.js';
export type { RetryOptions } from './transport/call/retry-options.js';
export type { FetchLike } from './transport/call/transport.js';
export type {
  DispatchOptions,
  DispatchResponse,
  DispatchSignal,
  UndiciDispatcher,
} from './transport/http/dispatcher.js';
export type { CircuitState } from './transport/resilience/circuit-breaker.js';
export type { TransportStats } from './transport/resilience/resilience.js';
export type {
  CircuitBreakerOptions,
  RateLimitOptions,
  ResilienceOptions,
  RetryBudgetOptions,
} from './transport/resilience/resilience-options.js';
export type { CommonClientOptions } from './transport/settings/client-options.js';
export { VERSION } from './version.js';
