import { ConfigurationError } from '../errors/configuration-error.js';
import { SANDBOX_API_KEY, SANDBOX_HASH_FAULTS, SANDBOX_HASH_RECORDS } from './defaults.js';
import { applyHashFault, faultKind, HASH_SCAN_FAULT_KINDS, type HashScanFault } from './hash-faults.js';
import { checkRecord, type HashRecord } from './records.js';
import { maskParams, type RequestSink } from './request-log.js';
import {
  jsonResponse,
  replyStatus,
  respond,
  type ServiceHandler,
  type ServiceReply,
  type ServiceRequest,
} from './service-handler.js';

/**
 * What the hash lookup double knows. Every field is optional; left out, it
 * takes the sandbox default. Given, `records` and `faults` **replace** the
 * defaults (EICAR included): spread `SANDBOX_HASH_RECORDS` or
 * `SANDBOX_HASH_FAULTS` into yours to keep them.
 *
 * @example
 * ```ts
 * { apiKey: 'test-key', records: [...SANDBOX_HASH_RECORDS, recordFor('bad bytes')], faults: { [someSha256]: 'timeout' } }
 * ```
 */
export interface HashScanServiceOptions {
  /** The only accepted `api_key`. @defaultValue `'sandbox-api-key'` */
  readonly apiKey?: string | undefined;
  /**
   * Flagged files: every other hash is not detected. **Replaces** the
   * default table: `records: [mine]` flags `mine` only, and EICAR is then
   * not detected. To add yours to the defaults, spread them:
   * `records: [...SANDBOX_HASH_RECORDS, mine]`.
   * @defaultValue {@link SANDBOX_HASH_RECORDS} (EICAR and two made-up samples)
   * @example
   * ```ts
   * await startSandbox({ hashScan: { records: [...SANDBOX_HASH_RECORDS, recordFor(upload)] } })
   * ```
   */
  readonly records?: readonly HashRecord[] | undefined;
  /**
   * Hash → fault. Keys may be in any letter case; a fault applies to the exact
   * digest it is keyed by (not to the record's other digests). **Replaces**
   * the default table (the `SANDBOX_FAULT_HASHES` then answer normally): to
   * add yours to it, spread it: `faults: { ...SANDBOX_HASH_FAULTS, [sha256]: 'timeout' }`.
   * @defaultValue {@link SANDBOX_HASH_FAULTS} (one made-up hash per fault kind)
   */
  readonly faults?: Readonly<Record<string, HashScanFault>> | undefined;
  /** `message` of a non-detection. @defaultValue `'No active detection service detected this file.'` */
  readonly notDetectedMessage?: string | undefined;
}

const DEFAULT_NOT_DETECTED_MESSAGE = 'No active detection service detected this file.';
const HASH = /^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64})$/i;

/** An MD5, SHA-1 or SHA-256 in hex, any letter case. */
function isHash(value: unknown): value is string {
  return typeof value === 'string' && HASH.test(value);
}

/** The hit body of the spec: `status`, `is_virus`, `source` and all three digests with the times. */
function hitBody(record: HashRecord): Record<string, unknown> {
  return {
    status: 'success',
    is_virus: true,
    source: record.source,
    data: {
      sha256: record.sha256,
      md5: record.md5,
      sha1: record.sha1,
      first_seen: record.firstSeen,
      last_seen: record.lastSeen,
    },
  };
}

/** Checks the options once, so a typo fails at set-up rather than as a puzzling answer. */
function resolveOptions(options: HashScanServiceOptions) {
  const apiKey = options.apiKey ?? SANDBOX_API_KEY;
  if (typeof apiKey !== 'string' || apiKey === '') throw new ConfigurationError('apiKey', 'must be a non-empty string');
  const byDigest = new Map<string, HashRecord>();
  for (const given of options.records ?? SANDBOX_HASH_RECORDS) {
    const record = checkRecord(given);
    for (const digest of [record.md5, record.sha1, record.sha256]) byDigest.set(digest, record);
  }
  const faults = new Map<string, HashScanFault>();
  for (const [hash, fault] of Object.entries(options.faults ?? SANDBOX_HASH_FAULTS)) {
    if (!isHash(hash)) throw new ConfigurationError('faults', `${hash} is not an MD5, SHA-1 or SHA-256`);
    if (!HASH_SCAN_FAULT_KINDS.includes(faultKind(fault))) {
      throw new ConfigurationError('faults', `unknown fault kind for ${hash}`);
    }
    faults.set(hash.toLowerCase(), fault);
  }
  return { apiKey, byDigest, faults, notDetectedMessage: options.notDetectedMessage ?? DEFAULT_NOT_DETECTED_MESSAGE };
}

/**
 * The hash lookup protocol (`GET {base}/hash_scan?api_key=…&hash=…`) as a
 * plain function; the msw handlers and the sandbox server adapt it.
 *
 * Where the spec is silent: a missing or wrong `api_key` answers HTTP 401
 * `{status:'error', message}`; a missing or malformed `hash` answers HTTP 400
 * `{status:'error', message}`; another method answers HTTP 405. The key is
 * checked first, faults apply only to authenticated, well-formed lookups.
 */
export function createHashLookupService(options: HashScanServiceOptions, sink: RequestSink): ServiceHandler {
  const { apiKey, byDigest, faults, notDetectedMessage } = resolveOptions(options);
  // The answer almost every lookup gets, built once and frozen, since every lookup shares it.
  const notDetected = Object.freeze({ status: 'success', is_virus: false, message: notDetectedMessage });
  const notDetectedResponse = jsonResponse(200, notDetected);
  Object.freeze(notDetectedResponse.headers);
  const notDetectedReply = Object.freeze(respond(Object.freeze(notDetectedResponse)));

  const decide = (request: ServiceRequest): { reply: ServiceReply; outcome: string } => {
    const error = (status: number, outcome: string, message: string, headers: Record<string, string> = {}) => ({
      reply: respond(jsonResponse(status, { status: 'error', message }, headers)),
      outcome,
    });
    if (request.method !== 'GET') {
      return error(405, 'method_not_allowed', 'only GET is supported', { allow: 'GET' });
    }
    if (request.url.searchParams.get('api_key') !== apiKey) {
      return error(401, 'unauthorized', 'missing or invalid api_key');
    }
    const hash = request.url.searchParams.get('hash');
    if (!isHash(hash)) {
      return error(400, 'invalid_hash', 'hash must be a bare MD5, SHA-1 or SHA-256 hex digest');
    }
    const digest = hash.toLowerCase();
    const record = byDigest.get(digest);
    const fault = faults.get(digest);
    if (fault !== undefined) {
      return {
        reply: applyHashFault(fault, record ? hitBody(record) : notDetected),
        outcome: `fault:${faultKind(fault)}`,
      };
    }
    if (record === undefined) return { reply: notDetectedReply, outcome: 'not_detected' };
    return { reply: respond(jsonResponse(200, hitBody(record))), outcome: 'malicious' };
  };

  return (request) => {
    const { reply, outcome } = decide(request);
    sink({
      service: 'hashscan',
      method: request.method,
      path: request.url.pathname,
      params: maskParams(Object.fromEntries(request.url.searchParams), [apiKey]),
      receivedAt: new Date(),
      status: replyStatus(reply),
      outcome,
    });
    return reply;
  };
}
