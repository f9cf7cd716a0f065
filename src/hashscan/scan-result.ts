import type { HashScanError } from '../errors/hash-scan-error.js';
import type { HashAlgorithm } from './hash-algorithm.js';

/**
 * Hashes and observation times of a flagged file, as the service gave them.
 * A field that was missing or malformed is left out and named in `anomalies`.
 * `first_seen`/`last_seen` are strings shaped `YYYY-MM-DD HH:MM:SS`; the
 * service does not say which time zone they are in, so none is assumed.
 */
export interface ThreatData {
  readonly sha256?: string;
  readonly md5?: string;
  readonly sha1?: string;
  readonly first_seen?: string;
  readonly last_seen?: string;
}

interface ResultBase {
  /** The looked-up hash, lower-cased. */
  readonly hash: string;
  readonly algorithm: HashAlgorithm;
  /** The parsed response body, frozen. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/**
 * The service flagged the file (`status: "success"`, `is_virus: true`).
 * A hit stays a hit even when the rest of the body is off (fail closed):
 * `anomalies` lists what was missing or malformed.
 */
export interface MaliciousResult extends ResultBase {
  readonly verdict: 'malicious';
  /** Identifier of the detection source, when given well-formed. */
  readonly source: string | undefined;
  readonly data: ThreatData | undefined;
  /** Empty for a textbook hit; otherwise, e.g. `data.md5: expected 32 hex digits`. */
  readonly anomalies: readonly string[];
}

/**
 * No active detection service flagged the file. This is NOT a statement that
 * the file is safe: keep your other checks in place. Only the exact
 * documented body (`status`, `is_virus: false`, `message`, nothing else)
 * produces this verdict.
 */
export interface NotDetectedResult extends ResultBase {
  readonly verdict: 'not_detected';
  readonly message: string;
}

/** A trustworthy answer from the service. */
export type ScanResult = MaliciousResult | NotDetectedResult;

/** A lookup of a batch entry that gave no trustworthy answer. */
export interface ScanErrorOutcome {
  readonly verdict: 'error';
  /** The lower-cased hash, or the input as given when it was not a valid hash. */
  readonly hash: string;
  readonly error: HashScanError;
}

/** One entry of a batch: an answer, or why there is none. */
export type ScanOutcome = ScanResult | ScanErrorOutcome;

/** An outcome of `scanIterable`, with the position of its input. */
export type IndexedScanOutcome = ScanOutcome & { readonly index: number };
