/**
 * The inventory's table of objects (`scan --inventory FILE s3://…`), beside
 * `files` in the same file: an object is keyed by bucket and key, never by a
 * path, so it cannot collide with a local file of any name. Created when a
 * run first meets it (a file written before has none, and older versions
 * leave it alone). Every row read back is checked, as `files` rows are.
 */
import * as z from 'zod';
import { answerRules, DIGEST_AND_ANSWER } from '../schema.js';

/** Run on every open: a no-op once the table is there. */
export const CREATE_OBJECTS = `
CREATE TABLE IF NOT EXISTS objects (
  bucket TEXT NOT NULL,
  key TEXT NOT NULL,
  version_id TEXT,
  etag TEXT NOT NULL,
  size INTEGER NOT NULL,
  last_modified TEXT,
  sha256 TEXT,
  sha1 TEXT,
  md5 TEXT,
  algorithm TEXT NOT NULL,
  digest_source TEXT NOT NULL,
  verdict TEXT NOT NULL,
  decision TEXT NOT NULL,
  source TEXT,
  checked_at INTEGER,
  first_seen TEXT,
  last_seen TEXT,
  PRIMARY KEY (bucket, key)
) STRICT;`;

/** One row of `objects`, as read back. */
export const objectRow = answerRules(
  z.object({
    bucket: z.string().min(1).max(255),
    key: z.string().min(1).max(4096),
    version_id: z.string().min(1).max(1024).nullable(),
    etag: z.string().min(1).max(1024),
    size: z.number().int().nonnegative(),
    last_modified: z.iso.datetime().nullable(),
    digest_source: z.enum(['checksum-sha256', 'etag-md5', 'download']),
    ...DIGEST_AND_ANSWER,
  }),
);
export type ObjectRow = z.infer<typeof objectRow>;
