import * as z from 'zod/mini';
import type { $ZodError } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

/** zod's English messages, per parse: `zod/mini` loads no locale (see `hashscan/response-schema.ts`). */
export const ENGLISH = { error: en().localeError } as const;

/**
 * The service's answer, success and failure alike (spec parts 2 and 7).
 * The three documented fields are required; unknown extra fields (the
 * vendor protocol adds e.g. `BizId` or `Recommend`) are tolerated and
 * dropped, since they do not change whether the send succeeded.
 */
export const sendSmsResponseSchema = z.object({
  Code: z.string().check(z.minLength(1, 'expected a non-empty string')),
  Message: z.string(),
  RequestId: z.string(),
});

/** A validated answer of the service. */
export type SendSmsResponse = z.infer<typeof sendSmsResponseSchema>;

/** Renders zod issues as short `path: problem` lines. */
export function describeResponseIssues(error: $ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length === 0 ? 'body' : issue.path.join('.')}: ${issue.message}`);
}
