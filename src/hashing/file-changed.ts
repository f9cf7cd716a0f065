import type { BigIntStats } from 'node:fs';
import { HashScanError } from '../errors/hashscan-error.js';

/**
 * What identifies a file's content between two `fstat`s of one open file:
 * size, modification time and change time (nanoseconds where the file
 * system keeps them). Any write, truncation or `touch` moves `ctime`.
 */
export interface FileIdentity {
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

export function identityOf(stats: BigIntStats): FileIdentity {
  return { size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs };
}

/**
 * GNU tar's "file changed as we read it": a regular file whose reading
 * ended short of (or went past) the size it had when opened, or whose
 * size, mtime or ctime differ after the read from before it. Its digest
 * would cover bytes that never were the file at any one moment, so none is
 * given: the typed `FILE_CHANGED` error instead. `undefined` when unchanged.
 */
export function fileChanged(before: FileIdentity, bytesRead: number, after: FileIdentity): HashScanError | undefined {
  let what: string | undefined;
  if (BigInt(bytesRead) < before.size) what = `read ${bytesRead} bytes of the ${before.size} it had when opened`;
  else if (after.size !== before.size) what = `its size went from ${before.size} to ${after.size} bytes`;
  else if (after.mtimeNs !== before.mtimeNs) what = 'its modification time changed';
  else if (after.ctimeNs !== before.ctimeNs) what = 'its change time (ctime) changed';
  if (what === undefined) return undefined;
  return new HashScanError({
    code: 'FILE_CHANGED',
    message: `file changed as we read it (${what}); no digest is given for bytes that never were the file`,
  });
}
