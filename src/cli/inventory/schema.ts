/**
 * The inventory's tables, and the check of every row read back: the file is
 * a state file (the user may have edited it, another version may have
 * written it), so a row that does not validate refuses the whole file.
 */
import { z } from 'zod';

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

const hex = (digits: number) =>
  z
    .string()
    .regex(new RegExp(`^[0-9a-f]{${digits}}$`))
    .nullable();
const seenAt = z.string().max(64).nullable();

/** The columns of a file's or an object's digests and answer, as read back. */
export const DIGEST_AND_ANSWER = {
  sha256: hex(64),
  sha1: hex(40),
  md5: hex(32),
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

/** The rules a row's digests and answer keep together: a digest for its algorithm, a time with every answer. */
export function answerRules<S extends z.ZodType<DigestAndAnswer>>(row: S): S {
  return row
    .refine((r) => r[r.algorithm] !== null, { message: 'no digest for its algorithm' })
    .refine((r) => (r.verdict === 'error') === (r.checked_at === null), {
      message: 'an answer without its time, or an error with one',
    })
    .refine((r) => r.verdict === 'error' || r.decision === (r.verdict === 'malicious' ? 'block' : 'allow'), {
      message: 'a decision its verdict does not give',
    });
}

/** One row of `files`, as read back. */
export const fileRow = answerRules(
  z.object({
    path: z.instanceof(Uint8Array),
    size: z.number().int().nonnegative(),
    mtime_ms: z.number(),
    ino: z.number(),
    dev: z.number(),
    ...DIGEST_AND_ANSWER,
  }),
);
export type FileRow = z.infer<typeof fileRow>;
