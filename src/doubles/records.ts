import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { ConfigurationError } from '../errors/configuration-error.js';

/**
 * One flagged file in the sandbox's table: its three digests, the detection
 * source and when it was seen. A lookup by any of the digests is a hit, and
 * the answer carries all three.
 *
 * @example
 * ```ts
 * const record: HashRecord = recordFor('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR…', { source: 'eicar' })
 * ```
 */
export interface HashRecord {
  /** 32 hex digits. */
  readonly md5: string;
  /** 40 hex digits. */
  readonly sha1: string;
  /** 64 hex digits. */
  readonly sha256: string;
  /** The `source` field of the hit. */
  readonly source: string;
  /** `YYYY-MM-DD HH:MM:SS`, the only shape the spec gives. */
  readonly firstSeen: string;
  /** `YYYY-MM-DD HH:MM:SS`. */
  readonly lastSeen: string;
}

/** Options of {@link recordFor}. */
export interface RecordForOptions {
  /** @defaultValue `'sandbox'` */
  readonly source?: string | undefined;
  /** A `YYYY-MM-DD HH:MM:SS` string, or a `Date` written in UTC. @defaultValue `'2024-01-01 00:00:00'` */
  readonly firstSeen?: string | Date | undefined;
  /** Same shape as `firstSeen`. @defaultValue the `firstSeen` value */
  readonly lastSeen?: string | Date | undefined;
}

const SEEN_AT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DEFAULT_SEEN_AT = '2024-01-01 00:00:00';

const hex = (digits: number) =>
  z.pipe(
    z.string().check(z.regex(new RegExp(`^[0-9a-fA-F]{${digits}}$`), `expected ${digits} hex digits`)),
    z.transform((value: string) => value.toLowerCase()),
  );

const recordSchema = z.object({
  md5: hex(32),
  sha1: hex(40),
  sha256: hex(64),
  source: z.string().check(z.minLength(1)),
  firstSeen: z.string().check(z.regex(SEEN_AT, 'expected YYYY-MM-DD HH:MM:SS')),
  lastSeen: z.string().check(z.regex(SEEN_AT, 'expected YYYY-MM-DD HH:MM:SS')),
});

/** `YYYY-MM-DD HH:MM:SS` in UTC (the spec names no time zone; UTC is at least stable). */
function formatSeenAt(value: string | Date): string {
  return typeof value === 'string' ? value : value.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Builds a {@link HashRecord} from file content, computing its MD5, SHA-1 and
 * SHA-256 with `node:crypto`, so a test can flag the very bytes it uploads.
 *
 * @example
 * ```ts
 * const payload = Buffer.from('pretend malware')
 * const sandbox = await startSandbox({ hashScan: { records: [recordFor(payload, { source: 'test-av' })] } })
 * ```
 */
export function recordFor(content: Buffer | Uint8Array | string, options: RecordForOptions = {}): HashRecord {
  const digest = (algorithm: 'md5' | 'sha1' | 'sha256'): string => createHash(algorithm).update(content).digest('hex');
  const firstSeen = formatSeenAt(options.firstSeen ?? DEFAULT_SEEN_AT);
  return checkRecord({
    md5: digest('md5'),
    sha1: digest('sha1'),
    sha256: digest('sha256'),
    source: options.source ?? 'sandbox',
    firstSeen,
    lastSeen: options.lastSeen === undefined ? firstSeen : formatSeenAt(options.lastSeen),
  });
}

/**
 * Checks a configured record and lower-cases its digests.
 * @throws {ConfigurationError} naming the bad field.
 */
export function checkRecord(record: HashRecord, option = 'records'): HashRecord {
  // zod's English messages, per parse: `zod/mini` loads no locale.
  const parsed = recordSchema.safeParse(record, { error: en().localeError });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigurationError(option, `${issue?.path.join('.') ?? 'record'}: ${issue?.message ?? 'invalid'}`);
  }
  return Object.freeze(parsed.data);
}
