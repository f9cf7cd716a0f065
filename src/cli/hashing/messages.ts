/**
 * What the scan command and its hashing thread say to each other. Paths go
 * out and results come back in batches: one message per file would cost
 * more than hashing a small file.
 */
import type { HashAlgorithm } from '../../index.js';

/** Set up the thread: the same options `hashFiles` takes. */
export interface HashJob {
  readonly algorithms: readonly HashAlgorithm[];
  readonly concurrency: number;
}

/** To the thread: more paths, or `end` (no more will come: finish and say `done`). */
export type ToHasher = { readonly paths: readonly Uint8Array[] } | { readonly end: true };

/** A file that could not be read, as it crosses threads (an `Error`'s `code` does not survive the copy). */
export interface UnreadableWire {
  readonly index: number;
  /** Names are bytes; a Buffer crosses threads as a plain Uint8Array. */
  readonly path: Uint8Array;
  readonly code: string | undefined;
  readonly message: string;
}

/** A file that was read. */
export interface HashedWire {
  readonly index: number;
  readonly path: Uint8Array;
  readonly size: number;
  readonly digests: Readonly<Record<string, string>>;
}

/** From the thread: results, in completion order, or `done` after the last of them. */
export type FromHasher = { readonly files: readonly (HashedWire | UnreadableWire)[] } | { readonly done: true };
