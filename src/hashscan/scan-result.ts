import type { HashScanError } from '../errors/hashscan-error.js';
import type { HashAlgorithm } from '../hashing/hash-algorithm.js';

/**
 * Hashes and observation times of a flagged file, as the service gave them.
 * A field that was missing or malformed is left out and named in `anomalies`.
 * `first_seen`/`last_seen` are strings shaped `YYYY-MM-DD HH:MM:SS`; the
 * service does not say which time zone they are in, so none is assumed.
 */
export interface ThreatData {
  /** SHA-256 of the flagged file, lower-cased. */
  readonly sha256?: string;
  /** MD5 of the flagged file, lower-cased. */
  readonly md5?: string;
  /** SHA-1 of the flagged file, lower-cased. */
  readonly sha1?: string;
  /** When the file was first seen, `YYYY-MM-DD HH:MM:SS` as sent (time zone unstated). */
  readonly first_seen?: string;
  /** When the file was last seen, `YYYY-MM-DD HH:MM:SS` as sent (time zone unstated). */
  readonly last_seen?: string;
}

interface ResultBase {
  /** The looked-up hash, lower-cased. */
  readonly hash: string;
  /** Which digest the hash is, told by its length. */
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
  /** The service flagged the file. */
  readonly verdict: 'malicious';
  /** Identifier of the detection source, when given well-formed. */
  readonly source: string | undefined;
  /** The well-formed fields of the service's `data`; `undefined` when `data` was missing or not an object. */
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
  /** No active detection service flagged the file (which does not make it safe). */
  readonly verdict: 'not_detected';
  /** The service's `message`, as sent. */
  readonly message: string;
}

/** A trustworthy answer from the service. */
export type ScanResult = MaliciousResult | NotDetectedResult;

/** A lookup of a batch entry that gave no trustworthy answer. */
export interface ScanErrorOutcome {
  /** This entry has no trustworthy answer; never treat it as not detected. */
  readonly verdict: 'error';
  /** The lower-cased hash, or the input as given when it was not a valid hash. */
  readonly hash: string;
  /** Why there is no answer; the error `scan` would have rejected with. */
  readonly error: HashScanError;
}

/** One entry of a batch: an answer, or why there is none. */
export type ScanOutcome = ScanResult | ScanErrorOutcome;

/** An outcome of `scanIterable`, with the position of its input. */
export type IndexedScanOutcome = ScanOutcome & {
  /** Position of the input in the iterable, from 0. */
  readonly index: number;
};
