import { HashScanError } from '../errors/hashscan-error.js';
import type { NormalizedHash } from '../hashing/hash-algorithm.js';
import {
  type DuplicateKey,
  type JsonObject,
  parseStrictJson,
  StrictJsonError,
  type StrictJsonOptions,
} from '../json/strict-parse.js';
import { maskJson } from '../secrets/mask-json.js';
import type { Redactor } from '../secrets/redact.js';
import type { IncomingResponse } from '../transport/call/exchange.js';
import { parseRetryAfter } from '../transport/http/retry-after.js';
import { authHint } from './auth-hint.js';
import {
  describeIssues,
  ENGLISH,
  HIT_FIELDS,
  isDocumentedNonDetection,
  isJsonObject,
  type notDetectedSchema,
  sourceSchema,
  threatDataFields,
} from './response-schema.js';
import type { MaliciousResult, ScanResult, ThreatData } from './scan-result.js';
import type { SharedBodies } from './shared-body.js';

/** What `interpretScanResponse` needs besides the response. */
export interface InterpretContext {
  readonly query: NormalizedHash;
  readonly notDetected: ReturnType<typeof notDetectedSchema>;
  readonly redact: Redactor;
}

const BODY_EXCERPT = 512;

/** The strict reader's options for a lookup answer: every object and array frozen as it closes. */
const FROZEN: StrictJsonOptions = Object.freeze({ freeze: true });

type FailureCode = 'HTTP_STATUS' | 'INVALID_JSON' | 'STATUS_NOT_SUCCESS' | 'INVALID_RESPONSE';

/** The error of an abnormal response: redacted message, issues and body excerpt. */
function failure(
  response: IncomingResponse,
  context: InterpretContext,
  code: FailureCode,
  message: string,
  issues?: string[],
): HashScanError {
  const { redact } = context;
  return new HashScanError({
    code,
    message: redact(message),
    hash: context.query.hash,
    attempts: response.attempt,
    status: response.status,
    // Redact before cutting, so a secret straddling the cut cannot leave a prefix behind.
    body: redact(response.text).slice(0, BODY_EXCERPT),
    issues: issues?.map(redact),
    retryAfterMs: code === 'HTTP_STATUS' ? parseRetryAfter(response.headers.get('retry-after')) : undefined,
  });
}

/**
 * Turns one HTTP response into a verdict, following the spec's defensive
 * rules in order: HTTP status, JSON, `status`, `is_virus`, then the exact
 * shape. Anything abnormal throws; nothing abnormal becomes `not_detected`.
 * With `bodies`, a non-detection whose body is the same text as the last
 * one's keeps that one's frozen `raw` (see {@link SharedBodies}).
 *
 * @throws {HashScanError} `HTTP_STATUS`, `INVALID_JSON`, `STATUS_NOT_SUCCESS` or `INVALID_RESPONSE`.
 */
export function interpretScanResponse(
  response: IncomingResponse,
  context: InterpretContext,
  bodies?: SharedBodies,
): ScanResult {
  const { query, redact } = context;

  // The HTTP status alone never decides, but a non-2xx is abnormal whatever its body says.
  if (response.status < 200 || response.status > 299) {
    const hint = authHint(response.status);
    throw failure(
      response,
      context,
      'HTTP_STATUS',
      `the service answered HTTP ${response.status}${hint === undefined ? '' : `: ${hint}`}`,
    );
  }

  // One strict read: repeated keys reported, `__proto__` an ordinary field,
  // depth bounded, every object and array frozen as it closes (so `raw` is
  // deeply frozen without a recursive walk).
  let value: unknown;
  let duplicates: readonly DuplicateKey[];
  try {
    ({ value, duplicates } = parseStrictJson(response.text, FROZEN));
  } catch (error) {
    if (error instanceof StrictJsonError && error.kind === 'depth') {
      throw failure(response, context, 'INVALID_RESPONSE', `the response body is ${error.message}`, [
        'body: nested too deep',
      ]);
    }
    throw failure(response, context, 'INVALID_JSON', 'the response body is not valid JSON');
  }
  // Fast path for the common answer: exactly the documented non-detection
  // (what the strict schema below accepts), in one pass. Everything else (a
  // hit, an anomaly, a repeated key) goes through the checks one by one for
  // its precise outcome.
  // A result hands back the body (`raw`, `source`, `message`): masked as errors and channels are.
  if (duplicates.length === 0 && isDocumentedNonDetection(value, context.notDetected)) {
    const body =
      bodies === undefined
        ? maskJson(response.text, value as JsonObject, redact)
        : bodies.raw(response.text, value as JsonObject, redact);
    return notDetected(body, body.message as string, query);
  }
  value = maskJson(response.text, value, redact);

  if (!isJsonObject(value))
    throw failure(response, context, 'INVALID_RESPONSE', 'the response body is not a JSON object');
  const body = value;
  if (duplicates.length > 0) {
    // A body that says a key twice said two things; only a hit it claims is believed (fail closed).
    const issues = describeDuplicates(duplicates).map(redact);
    if (claimsHit(body, duplicates)) return malicious(body, query, issues);
    throw failure(response, context, 'INVALID_RESPONSE', `the response repeats a field: ${issues.join('; ')}`, issues);
  }

  if (typeof body.status !== 'string') {
    throw failure(response, context, 'INVALID_RESPONSE', '`status` is missing or not a string', [
      'status: expected string',
    ]);
  }
  if (body.status !== 'success') {
    throw failure(
      response,
      context,
      'STATUS_NOT_SUCCESS',
      `\`status\` is ${JSON.stringify(body.status.slice(0, 64))}, not "success"`,
    );
  }
  if (typeof body.is_virus !== 'boolean') {
    throw failure(response, context, 'INVALID_RESPONSE', '`is_virus` is missing or not a boolean', [
      'is_virus: expected boolean',
    ]);
  }

  if (body.is_virus) return malicious(body, query);

  const exact = context.notDetected.safeParse(body, ENGLISH);
  if (!exact.success) {
    const issues = describeIssues(exact.error.issues);
    throw failure(
      response,
      context,
      'INVALID_RESPONSE',
      `abnormal non-detection response: ${issues.join('; ')}`,
      issues,
    );
  }
  return notDetected(bodies === undefined ? body : bodies.raw(response.text, body, redact), exact.data.message, query);
}

function notDetected(raw: Readonly<Record<string, unknown>>, message: string, query: NormalizedHash): ScanResult {
  return Object.freeze({ verdict: 'not_detected', hash: query.hash, algorithm: query.algorithm, message, raw });
}

/** A hit is a hit: whatever else is wrong only adds to `anomalies` (fail closed). */
function malicious(
  body: Readonly<Record<string, unknown>>,
  query: NormalizedHash,
  anomalies: string[] = [],
): MaliciousResult {
  const unexpected = Object.keys(body).filter((key) => !HIT_FIELDS.has(key));
  if (unexpected.length > 0)
    anomalies.push(`unexpected field${unexpected.length > 1 ? 's' : ''} ${unexpected.join(', ')}`);

  const source = sourceSchema.safeParse(body.source, ENGLISH);
  if (!source.success) anomalies.push(...describeIssues(source.error.issues, 'source'));

  let data: ThreatData | undefined;
  const rawData = body.data;
  if (isJsonObject(rawData)) {
    const fields: Record<string, string> = {};
    for (const [name, schema] of Object.entries(threatDataFields)) {
      const field = schema.safeParse(rawData[name], ENGLISH);
      if (field.success) fields[name] = field.data;
      else anomalies.push(...describeIssues(field.error.issues, `data.${name}`));
    }
    const extra = Object.keys(rawData).filter((key) => !(key in threatDataFields));
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

const LISTED_DUPLICATES = 8;

/** `data.md5: repeated field` for the first few repeated keys (a hostile body may repeat thousands). */
function describeDuplicates(duplicates: readonly DuplicateKey[]): string[] {
  const lines = duplicates
    .slice(0, LISTED_DUPLICATES)
    .map(({ path, key }) => `${[...path, key].join('.').slice(0, 128)}: repeated field`);
  const more = duplicates.length - LISTED_DUPLICATES;
  if (more > 0) lines.push(`${more} more repeated field${more > 1 ? 's' : ''}`);
  return lines;
}

/**
 * Whether a body with repeated keys claims a hit: every top-level `status`
 * it gives is `"success"` and one of its top-level `is_virus` is `true`.
 * Such a body is a hit with the repetitions as anomalies; any other is abnormal.
 */
function claimsHit(body: Readonly<Record<string, unknown>>, duplicates: readonly DuplicateKey[]): boolean {
  const given = (key: string): readonly unknown[] =>
    duplicates.find((duplicate) => duplicate.path.length === 0 && duplicate.key === key)?.values ?? [body[key]];
  return given('status').every((status) => status === 'success') && given('is_virus').includes(true);
}
