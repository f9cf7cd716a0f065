import { halfBody, jsonResponse, respond, type ServiceReply } from './service-handler.js';

/**
 * The ways the sandbox can misbehave on a hash, each matching one defensive
 * rule of the spec (part 7) and one `HashScanError` code of the client:
 *
 * | kind | what is sent | client code |
 * |---|---|---|
 * | `http-status` | HTTP 503 (or `status`) with an error body | `HTTP_STATUS` |
 * | `timeout` | nothing, or the real answer after `delayMs` | `TIMEOUT` |
 * | `malformed-json` | HTTP 200 with the answer cut in half | `INVALID_JSON` |
 * | `status-not-success` | the answer with `status: "error"` | `STATUS_NOT_SUCCESS` |
 * | `is-virus-string` | the answer with `is_virus` as a string | `INVALID_RESPONSE` |
 * | `extra-fields` | the answer plus error fields | `INVALID_RESPONSE` (on a non-detection) |
 * | `connection-error` | the connection is cut | `NETWORK` |
 * | `partial-body` | headers and half the body, then the connection is cut | `NETWORK` |
 */
export type HashScanFaultKind =
  | 'http-status'
  | 'timeout'
  | 'malformed-json'
  | 'status-not-success'
  | 'is-virus-string'
  | 'extra-fields'
  | 'connection-error'
  | 'partial-body';

/**
 * A fault for one hash: a kind with its defaults, or an object to tune it.
 *
 * @example
 * ```ts
 * faults: {
 *   [sha256]: 'timeout',                                   // never answers
 *   [md5]: { kind: 'http-status', status: 429, retryAfterSeconds: 1 },
 *   [sha1]: { kind: 'timeout', delayMs: 200 },             // answers late
 * }
 * ```
 */
export type HashScanFault =
  | HashScanFaultKind
  | {
      /** HTTP 503 (or `status`) with an error body. */
      readonly kind: 'http-status';
      /** @defaultValue 503 */
      readonly status?: number;
      /** Sent as `Retry-After`. */
      readonly retryAfterSeconds?: number;
    }
  | {
      /** Never answer, or answer after `delayMs`. */
      readonly kind: 'timeout';
      /** Answer normally after this long. @defaultValue never answer */
      readonly delayMs?: number;
    }
  | {
      /** The normal answer with `status` replaced (`'error'` by default). */
      readonly kind: 'status-not-success';
      /** @defaultValue `'error'` */
      readonly status?: string;
    }
  | {
      /** The normal answer plus error fields (`fields`). */
      readonly kind: 'extra-fields';
      /** @defaultValue `{ error_code: 'QUOTA_EXCEEDED', error: 'daily quota exceeded' }` */
      readonly fields?: Readonly<Record<string, unknown>>;
    }
  | {
      /** A fault with nothing to tune: see {@link HashScanFaultKind}. */
      readonly kind: 'malformed-json' | 'is-virus-string' | 'connection-error' | 'partial-body';
    };

/** Every fault kind, in the order of the table above. */
export const HASH_SCAN_FAULT_KINDS: readonly HashScanFaultKind[] = Object.freeze([
  'http-status',
  'timeout',
  'malformed-json',
  'status-not-success',
  'is-virus-string',
  'extra-fields',
  'connection-error',
  'partial-body',
]);

/** The kind of a fault given in either form. */
export function faultKind(fault: HashScanFault): HashScanFaultKind {
  return typeof fault === 'string' ? fault : fault.kind;
}

/** Turns the answer the service would have given into the reply of `fault`. */
export function applyHashFault(fault: HashScanFault, answer: Readonly<Record<string, unknown>>): ServiceReply {
  const spec: Exclude<HashScanFault, string> = typeof fault === 'string' ? { kind: fault } : fault;
  const ok = (body: unknown) => respond(jsonResponse(200, body));
  switch (spec.kind) {
    case 'http-status': {
      const retryAfter = spec.retryAfterSeconds === undefined ? {} : { 'retry-after': String(spec.retryAfterSeconds) };
      const body = { status: 'error', message: 'the sandbox was told to fail this lookup' };
      return respond(jsonResponse(spec.status ?? 503, body, retryAfter));
    }
    case 'timeout':
      return { kind: 'stall', afterMs: spec.delayMs, response: jsonResponse(200, answer) };
    case 'malformed-json': {
      // A JSON object cut anywhere before its closing brace never parses.
      const response = jsonResponse(200, answer);
      return respond({ ...response, body: halfBody(response.body).toString('utf8') });
    }
    case 'status-not-success':
      // Otherwise a normal body, so only a client that checks `status` catches it.
      return ok({ ...answer, status: spec.status ?? 'error' });
    case 'is-virus-string':
      return ok({ ...answer, is_virus: String(answer.is_virus) });
    case 'extra-fields':
      return ok({ ...answer, ...(spec.fields ?? { error_code: 'QUOTA_EXCEEDED', error: 'daily quota exceeded' }) });
    case 'connection-error':
      return { kind: 'drop' };
    case 'partial-body':
      return { kind: 'partial-body', response: jsonResponse(200, answer) };
  }
}
