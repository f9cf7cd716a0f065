/**
 * The inventory's tables, and the check of every row read back: the file is
 * a state file (the user may have edited it, another version may have
 * written it), so a row that does not validate refuses the whole file.
 *
 * Rows are read as arrays in {@link COL}'s order and checked by hand, not
 * through a zod object per row: a re-check reads every row of the file, and
 * the check is the same one (types, ranges, enumerated values, and how the
 * fields agree) without an object and an issue list built per row.
 */
import * as z from 'zod';
import type { HashAlgorithm } from '../../index.js';

/** What `meta.format` holds in every inventory. */
export const FORMAT = 'hashscan-sms-inventory';
/** This version's schema; a file with another is refused, never guessed at. */
export const SCHEMA_VERSION = 1;

/** Run on a new file (no table yet). */
export const CREATE = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE files (
  path BLOB PRIMARY KEY,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  ino INTEGER NOT NULL,
  dev INTEGER NOT NULL,
  sha256 TEXT,
  sha1 TEXT,
  md5 TEXT,
  algorithm TEXT NOT NULL,
  verdict TEXT NOT NULL,
  decision TEXT NOT NULL,
  source TEXT,
  checked_at INTEGER,
  first_seen TEXT,
  last_seen TEXT
) STRICT;
CREATE INDEX files_sha256 ON files (sha256);
INSERT INTO meta (key, value) VALUES ('format', '${FORMAT}'), ('schema', '${SCHEMA_VERSION}');`;

/** Where each column of `files` sits in a {@link FileRow}. */
export const COL = {
  path: 0,
  size: 1,
  mtime_ms: 2,
  ino: 3,
  dev: 4,
  sha256: 5,
  sha1: 6,
  md5: 7,
  algorithm: 8,
  verdict: 9,
  decision: 10,
  source: 11,
  checked_at: 12,
  first_seen: 13,
  last_seen: 14,
} as const;

/** The columns of `files`, in the order of a {@link FileRow}. */
export const COLUMNS = Object.keys(COL) as readonly (keyof typeof COL)[];

/**
 * One row of `files` as read back and checked: the columns in
 * {@link COL}'s order. `checked_at`: when the answer was obtained (ms since
 * the epoch); `null` with the verdict `error`: no trustworthy answer, asked again.
 */
export type FileRow = readonly [
  /** The path's bytes in lowercase hex. */
  path: string,
  size: number,
  mtimeMs: number,
  ino: number,
  dev: number,
  sha256: string | null,
  sha1: string | null,
  md5: string | null,
  algorithm: HashAlgorithm,
  verdict: 'malicious' | 'not_detected' | 'error',
  decision: 'allow' | 'block' | 'review',
  source: string | null,
  checkedAt: number | null,
  firstSeen: string | null,
  lastSeen: string | null,
];

const HEX: Readonly<Record<HashAlgorithm, RegExp>> = {
  sha256: /^[0-9a-f]{64}$/,
  sha1: /^[0-9a-f]{40}$/,
  md5: /^[0-9a-f]{32}$/,
};
const ALGORITHMS = new Set<unknown>(['sha256', 'sha1', 'md5']);
const VERDICTS = new Set<unknown>(['malicious', 'not_detected', 'error']);
const DECISIONS = new Set<unknown>(['allow', 'block', 'review']);

const text = (value: unknown, max: number): boolean =>
  value === null || (typeof value === 'string' && value.length <= max);
const hex = (value: unknown, algorithm: HashAlgorithm): boolean =>
  value === null || (typeof value === 'string' && HEX[algorithm].test(value));
const count = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * The row's values (an array in {@link COL}'s order, or an object by
 * column name) as a {@link FileRow}, or what is wrong with them: the first
 * field that does not check (`size: …`), else how the fields disagree.
 */
export function checkRow(raw: unknown): FileRow | string {
  const row = Array.isArray(raw) ? raw : inOrder(raw);
  if (row.length !== COLUMNS.length) return `row: ${row.length} columns, not ${COLUMNS.length}`;
  const [path, size, mtimeMs, ino, dev, sha256, sha1, md5, algorithm, verdict, decision, source, checkedAt] = row;
  // `lower(hex(path))` gives hex digits, or null when the column does not hold bytes: its length is what to check.
  if (typeof path !== 'string' || path.length === 0 || path.length % 2 !== 0) return 'path: not bytes';
  if (!count(size)) return 'size: not a whole number of bytes';
  if (!Number.isFinite(mtimeMs)) return 'mtime_ms: not a time';
  if (!Number.isFinite(ino)) return 'ino: not a number';
  if (!Number.isFinite(dev)) return 'dev: not a number';
  if (!hex(sha256, 'sha256')) return 'sha256: not 64 lowercase hex digits';
  if (!hex(sha1, 'sha1')) return 'sha1: not 40 lowercase hex digits';
  if (!hex(md5, 'md5')) return 'md5: not 32 lowercase hex digits';
  if (!ALGORITHMS.has(algorithm)) return 'algorithm: not sha256, sha1 or md5';
  if (!VERDICTS.has(verdict)) return 'verdict: not malicious, not_detected or error';
  if (!DECISIONS.has(decision)) return 'decision: not allow, block or review';
  if (!text(source, 1024)) return 'source: not a text of at most 1024 characters';
  if (checkedAt !== null && !count(checkedAt)) return 'checked_at: not a time in ms since the epoch';
  if (!text(row[COL.first_seen], 64)) return 'first_seen: not a text of at most 64 characters';
  if (!text(row[COL.last_seen], 64)) return 'last_seen: not a text of at most 64 characters';
  const digest = row[COL[algorithm as HashAlgorithm]] as string | null;
  const disagreement = answerDisagreement(digest, verdict as Verdict, decision, checkedAt as number | null);
  return disagreement === undefined ? (row as unknown as FileRow) : `row: ${disagreement}`;
}

/** A row given as an object (a driver without array rows): its values in {@link COL}'s order. */
function inOrder(raw: unknown): unknown[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const record = raw as Record<string, unknown>;
  return COLUMNS.map((name) => (Object.hasOwn(record, name) ? record[name] : undefined));
}

const hexDigest = (digits: number) =>
  z
    .string()
    .regex(new RegExp(`^[0-9a-f]{${digits}}$`))
    .nullable();
const seenAt = z.string().max(64).nullable();

/** The columns of an object's digests and answer, as read back (the objects' rows: `objects/`). */
export const DIGEST_AND_ANSWER = {
  sha256: hexDigest(64),
  sha1: hexDigest(40),
  md5: hexDigest(32),
  algorithm: z.enum(['sha256', 'sha1', 'md5']),
  verdict: z.enum(['malicious', 'not_detected', 'error']),
  decision: z.enum(['allow', 'block', 'review']),
  source: z.string().max(1024).nullable(),
  // When the answer was obtained (ms since the epoch); null: no trustworthy answer, asked again.
  checked_at: z.number().int().nonnegative().nullable(),
  first_seen: seenAt,
  last_seen: seenAt,
};

type DigestAndAnswer = z.infer<z.ZodObject<typeof DIGEST_AND_ANSWER>>;
type Verdict = DigestAndAnswer['verdict'];

/** The rules a row's digests and answer keep together (files and objects): how they disagree, if they do. */
function answerDisagreement(
  digest: string | null,
  verdict: Verdict,
  decision: unknown,
  checkedAt: number | null,
): string | undefined {
  if (digest === null) return 'no digest for its algorithm';
  if ((verdict === 'error') !== (checkedAt === null)) return 'an answer without its time, or an error with one';
  if (verdict !== 'error' && decision !== (verdict === 'malicious' ? 'block' : 'allow')) {
    return 'a decision its verdict does not give';
  }
  return undefined;
}

/** {@link answerDisagreement}'s rules on a row checked by zod (the objects' rows). */
export function answerRules<S extends z.ZodType<DigestAndAnswer>>(row: S): S {
  return row.superRefine((r, context) => {
    const disagreement = answerDisagreement(r[r.algorithm], r.verdict, r.decision, r.checked_at);
    if (disagreement !== undefined) context.addIssue({ code: 'custom', message: disagreement });
  });
}
