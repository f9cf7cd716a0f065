import { z } from 'zod';

/** `YYYY-MM-DD HH:MM:SS`, the only shape the spec gives for observation times. */
const SEEN_AT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const hex = (digits: number) =>
  z
    .string()
    .regex(new RegExp(`^[0-9a-fA-F]{${digits}}$`), `expected ${digits} hex digits`)
    .transform((value) => value.toLowerCase());

const seenAt = z.string().regex(SEEN_AT, 'expected YYYY-MM-DD HH:MM:SS');

/** Each field of `data` on a hit, checked one by one so that good fields survive bad neighbours. */
export const threatDataFields = {
  sha256: hex(64),
  md5: hex(32),
  sha1: hex(40),
  first_seen: seenAt,
  last_seen: seenAt,
} as const;

/** Any JSON object: the first thing a body must be. */
export const jsonObject = z.record(z.string(), z.unknown());

/** `source` on a hit: a non-empty identifier. */
export const sourceSchema = z.string().min(1, 'expected a non-empty string');

/**
 * The documented non-detection body and nothing else; fields named in
 * `allowedExtraFields` may be present too.
 */
export function notDetectedSchema(allowedExtraFields: readonly string[]) {
  const extras = Object.fromEntries(allowedExtraFields.map((name) => [name, z.unknown().optional()]));
  return z.strictObject({
    ...extras,
    status: z.literal('success'),
    is_virus: z.literal(false),
    message: z.string(),
  });
}

/** The fields a textbook hit has; anything else on a hit is reported as an anomaly. */
export const HIT_FIELDS: ReadonlySet<string> = new Set(['status', 'is_virus', 'source', 'data']);

/** Renders zod issues as short `path: problem` lines for errors and anomalies. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], prefix = ''): string[] {
  return issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      return `${path === '' ? '' : `${path}: `}unexpected field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
    }
    return `${path === '' ? 'body' : path}: ${issue.message}`;
  });
}
