import { HashScanError } from '../errors/hash-scan-error.js';
import type { Redactor } from '../transport/redact.js';
import { parseRetryAfter } from '../transport/retry-after.js';
import type { IncomingResponse } from '../transport/transport.js';
import { authHint } from './auth-hint.js';
import type { NormalizedHash } from './hash-algorithm.js';
import {
  describeIssues,
  HIT_FIELDS,
  jsonObject,
  type notDetectedSchema,
  sourceSchema,
  threatDataFields,
} from './response-schema.js';
import type { MaliciousResult, ScanResult, ThreatData } from './scan-result.js';

/** What `interpretScanResponse` needs besides the response. */
export interface InterpretContext {
  readonly query: NormalizedHash;
  readonly notDetected: ReturnType<typeof notDetectedSchema>;
  readonly redact: Redactor;
}

const BODY_EXCERPT = 512;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Turns one HTTP response into a verdict, following the spec's defensive
 * rules in order: HTTP status, JSON, `status`, `is_virus`, then the exact
 * shape. Anything abnormal throws; nothing abnormal becomes `not_detected`.
 *
 * @throws {HashScanError} `HTTP_STATUS`, `INVALID_JSON`, `STATUS_NOT_SUCCESS` or `INVALID_RESPONSE`.
 */
export function interpretScanResponse(response: IncomingResponse, context: InterpretContext): ScanResult {
  const { query, redact } = context;
  const fail = (
    code: 'HTTP_STATUS' | 'INVALID_JSON' | 'STATUS_NOT_SUCCESS' | 'INVALID_RESPONSE',
    message: string,
    issues?: string[],
  ): HashScanError =>
    new HashScanError({
      code,
      message: redact(message),
      hash: query.hash,
      attempts: response.attempt,
      status: response.status,
      // Redact before cutting, so a secret straddling the cut cannot leave a prefix behind.
      body: redact(response.text).slice(0, BODY_EXCERPT),
      issues: issues?.map(redact),
      retryAfterMs: code === 'HTTP_STATUS' ? parseRetryAfter(response.headers.get('retry-after')) : undefined,
    });

  // The HTTP status alone never decides, but a non-2xx is abnormal whatever its body says.
  if (response.status < 200 || response.status > 299) {
    const hint = authHint(response.status);
    throw fail('HTTP_STATUS', `the service answered HTTP ${response.status}${hint === undefined ? '' : `: ${hint}`}`);
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(response.text);
  } catch {
    throw fail('INVALID_JSON', 'the response body is not valid JSON');
  }
  // Fast path for the common answer: the documented non-detection, validated
  // whole by the same strict zod schema as below, in one pass. Everything else
  // (a hit, an anomaly) goes through the checks one by one for its precise
  // outcome. A `__proto__` key, which the object check below drops from `raw`,
  // takes the long way too, so `raw` is the same either way.
  const documented = context.notDetected.safeParse(parsed);
  if (documented.success && !Object.hasOwn(parsed as object, '__proto__')) {
    return notDetected(deepFreeze(parsed as Record<string, unknown>), documented.data.message, query);
  }

  const object = jsonObject.safeParse(parsed);
  if (!object.success) throw fail('INVALID_RESPONSE', 'the response body is not a JSON object');
  const body = deepFreeze(object.data);

  if (typeof body.status !== 'string') {
    throw fail('INVALID_RESPONSE', '`status` is missing or not a string', ['status: expected string']);
  }
  if (body.status !== 'success') {
    throw fail('STATUS_NOT_SUCCESS', `\`status\` is ${JSON.stringify(body.status.slice(0, 64))}, not "success"`);
  }
  if (typeof body.is_virus !== 'boolean') {
    throw fail('INVALID_RESPONSE', '`is_virus` is missing or not a boolean', ['is_virus: expected boolean']);
  }

  if (body.is_virus) return malicious(body, query);

  const exact = context.notDetected.safeParse(body);
  if (!exact.success) {
    const issues = describeIssues(exact.error.issues);
    throw fail('INVALID_RESPONSE', `abnormal non-detection response: ${issues.join('; ')}`, issues);
  }
  return notDetected(body, exact.data.message, query);
}

function notDetected(raw: Readonly<Record<string, unknown>>, message: string, query: NormalizedHash): ScanResult {
  return Object.freeze({ verdict: 'not_detected', hash: query.hash, algorithm: query.algorithm, message, raw });
}

/** A hit is a hit: whatever else is wrong only adds to `anomalies` (fail closed). */
function malicious(body: Readonly<Record<string, unknown>>, query: NormalizedHash): MaliciousResult {
  const anomalies: string[] = [];
  const unexpected = Object.keys(body).filter((key) => !HIT_FIELDS.has(key));
  if (unexpected.length > 0)
    anomalies.push(`unexpected field${unexpected.length > 1 ? 's' : ''} ${unexpected.join(', ')}`);

  const source = sourceSchema.safeParse(body.source);
  if (!source.success) anomalies.push(...describeIssues(source.error.issues, 'source'));

  let data: ThreatData | undefined;
  const rawData = jsonObject.safeParse(body.data);
  if (rawData.success) {
    const fields: Record<string, string> = {};
    for (const [name, schema] of Object.entries(threatDataFields)) {
      const field = schema.safeParse(rawData.data[name]);
      if (field.success) fields[name] = field.data;
      else anomalies.push(...describeIssues(field.error.issues, `data.${name}`));
    }
    const extra = Object.keys(rawData.data).filter((key) => !(key in threatDataFields));
    if (extra.length > 0) anomalies.push(`data: unexpected field${extra.length > 1 ? 's' : ''} ${extra.join(', ')}`);
    const own = fields[query.algorithm];
    if (own !== undefined && own !== query.hash) {
      anomalies.push(`data.${query.algorithm}: does not match the queried hash`);
    }
    data = Object.freeze(fields);
  } else {
    anomalies.push('data: expected an object');
  }

  return Object.freeze({
    verdict: 'malicious',
    hash: query.hash,
    algorithm: query.algorithm,
    source: source.success ? source.data : undefined,
    data,
    anomalies: Object.freeze(anomalies),
    raw: body,
  });
}
