/*
 * What an observer other than the caller (a span, a metric point, a tracing
 * channel's subscriber) may learn of how an operation ended: one masking for
 * all of them. The caller gets the raw result or error; observers get these
 * summaries, built from an allow-list of fields, each shape-checked and then
 * passed through the client's redactor. Never a message, a body, a
 * string-to-sign or a raw answer: those may quote phone numbers, template
 * values or, when a service echoes the request, a key. Imports only the
 * vocabulary.
 */
import type { OperationEnd } from './events.js';

/** The client's redactor (masks every spelling of its secrets); structural, so this room imports nothing. */
export type Mask = (text: string) => string;

/** The mask of a publisher built without a client (tests): shape checks still apply. */
export const NO_MASK: Mask = (text) => text;

/** What a code or a request id looks like (`isv.SMS_TEMPLATE_ILLEGAL`, a UUID); anything else is left out. */
const IDENTIFIER = /^[\w.:-]{1,128}$/;
/**
 * What a detection source's name looks like (it may hold spaces, and the `***` of
 * a secret the result already had masked); anything else is left out.
 */
const SOURCE = /^[\w .:/@+()*-]{1,128}$/;
/** `error.type` of an error whose code is not an identifier (OpenTelemetry's fallback value). */
export const OTHER_ERROR = '_OTHER';

function token(value: unknown, shape: RegExp, mask: Mask): string | undefined {
  return typeof value === 'string' && shape.test(value) ? mask(value) : undefined;
}

/** How a lookup ended, as observers see it. */
export interface ScanEnd {
  readonly verdict: 'malicious' | 'not_detected' | 'error';
  /** The detection source's name on a hit, when it looks like a name (masked). */
  readonly source?: string;
  /** The error's code, `_OTHER` when it is not an identifier; absent on success. */
  readonly errorCode?: string;
}

/** How a send ended, as observers see it. */
export interface SendEnd {
  /** `sent` on success, else the error's `outcome` (`unknown` when it has none). */
  readonly outcome: 'sent' | 'not_sent' | 'rejected' | 'unknown';
  /** The service's `RequestId`, when it looks like an identifier (masked). */
  readonly requestId?: string;
  /** The error's code (a service `Code` included), `_OTHER` when it is not an identifier; absent on success. */
  readonly errorCode?: string;
}

function errorCodeOf(event: OperationEnd, mask: Mask): string | undefined {
  if (event.error === undefined && event.errorCode === undefined) return undefined;
  return token(event.errorCode, IDENTIFIER, mask) ?? OTHER_ERROR;
}

/** The summary of a lookup's end. */
export function scanEnd(event: OperationEnd, mask: Mask): ScanEnd {
  const errorCode = errorCodeOf(event, mask);
  if (errorCode !== undefined || event.error !== undefined)
    return { verdict: 'error', errorCode: errorCode ?? OTHER_ERROR };
  const result = event.result as { verdict?: unknown; source?: unknown } | undefined;
  const verdict = result?.verdict;
  if (verdict === 'not_detected') return { verdict };
  // Not a result a client resolves with: nothing to show of it.
  if (verdict !== 'malicious') return { verdict: 'error' };
  const source = token(result?.source, SOURCE, mask);
  return source === undefined ? { verdict } : { verdict, source };
}

const OUTCOMES: ReadonlySet<unknown> = new Set(['not_sent', 'rejected', 'unknown']);

/** The summary of a send's end. */
export function sendEnd(event: OperationEnd, mask: Mask): SendEnd {
  const error = event.error as { outcome?: unknown; requestId?: unknown } | undefined;
  const errorCode = errorCodeOf(event, mask);
  const outcome =
    error === undefined && errorCode === undefined
      ? 'sent'
      : OUTCOMES.has(error?.outcome)
        ? (error?.outcome as SendEnd['outcome'])
        : 'unknown';
  const answered = error === undefined ? (event.result as { requestId?: unknown } | undefined) : error;
  const requestId = token(answered?.requestId, IDENTIFIER, mask);
  return {
    outcome,
    ...(requestId === undefined ? {} : { requestId }),
    ...(errorCode === undefined ? {} : { errorCode }),
  };
}
