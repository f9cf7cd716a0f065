import * as z from 'zod/mini';
import type { $ZodIssue } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';
import { ConfigurationError } from '../errors/configuration-error.js';

/** `YYYY-MM-DD HH:MM:SS`, the only shape the spec gives for observation times. */
const SEEN_AT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * zod's English messages, per parse (`schema.safeParse(value, ENGLISH)`): `zod/mini` (tree-shaken,
 * a fraction of the classic API's size in a Worker bundle) loads no locale, and a global
 * `z.config()` would change the messages of the application's own zod schemas.
 */
export const ENGLISH = { error: en().localeError } as const;

const hex = (digits: number) =>
  z.pipe(
    z.string().check(z.regex(new RegExp(`^[0-9a-fA-F]{${digits}}$`), `expected ${digits} hex digits`)),
    z.transform((value: string) => value.toLowerCase()),
  );

const seenAt = z.string().check(z.regex(SEEN_AT, 'expected YYYY-MM-DD HH:MM:SS'));

/** Each field of `data` on a hit, checked one by one so that good fields survive bad neighbours. */
export const threatDataFields = {
  sha256: hex(64),
  md5: hex(32),
  sha1: hex(40),
  first_seen: seenAt,
  last_seen: seenAt,
} as const;

/**
 * Any JSON object: the first thing a body must be. Checked in place, not
 * copied: a copy (such as `z.record` makes) would drop a `__proto__` field.
 */
export function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `source` on a hit: a non-empty identifier. */
export const sourceSchema = z.string().check(z.minLength(1, 'expected a non-empty string'));

/**
 * The documented non-detection body and nothing else; fields named in
 * `allowedExtraFields` may be present too.
 */
export function notDetectedSchema(allowedExtraFields: readonly string[]) {
  const extras = Object.fromEntries(allowedExtraFields.map((name) => [name, z.optional(z.unknown())]));
  return z.strictObject({
    ...extras,
    status: z.literal('success'),
    is_virus: z.literal(false),
    message: z.string(),
  });
}

/**
 * Whether `value` is exactly what `schema` (from {@link notDetectedSchema})
 * accepts, checked by hand: the one answer almost every lookup gets, so it
 * skips zod's general machinery. It accepts nothing the schema refuses
 * (property-tested); whatever it refuses goes through the schema for a precise issue.
 */
export function isDocumentedNonDetection(value: unknown, schema: ReturnType<typeof notDetectedSchema>): boolean {
  if (!isJsonObject(value) || value.status !== 'success' || value.is_virus !== false) return false;
  if (typeof value.message !== 'string') return false;
  const { shape } = schema;
  // `for…in` sees own `__proto__` members too, and inherited enumerable ones (then the schema decides).
  for (const key in value) if (!Object.hasOwn(shape, key)) return false;
  return true;
}

/** The fields a textbook hit has; anything else on a hit is reported as an anomaly. */
export const HIT_FIELDS: ReadonlySet<string> = new Set(['status', 'is_virus', 'source', 'data']);

/** Renders zod issues as short `path: problem` lines for errors and anomalies. */
export function describeIssues(issues: readonly $ZodIssue[], prefix = ''): string[] {
  return issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      return `${path === '' ? '' : `${path}: `}unexpected field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
    }
    return `${path === '' ? 'body' : path}: ${issue.message}`;
  });
}

/** The `allowedExtraFields` option, checked: an array of field names (none by default). */
export function allowedExtraFields(value: unknown): readonly string[] {
  const allowed = value ?? [];
  if (!Array.isArray(allowed) || !allowed.every((name) => typeof name === 'string')) {
    throw new ConfigurationError('allowedExtraFields', 'must be an array of field names');
  }
  return allowed;
}
