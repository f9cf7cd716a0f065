import type { ResponseNote } from '../observe/logger.js';

/** What a 401 or 403 from the lookup service most often means. */
const API_KEY_HINT = 'check apiKey (or HASHSCAN_API_KEY): the service refused the key';

/** The hint for an HTTP status of the lookup service, if there is one. */
export function authHint(status: number | undefined): string | undefined {
  return status === 401 || status === 403 ? API_KEY_HINT : undefined;
}

/** The log note of a lookup answer: the `apiKey` hint on 401/403. */
export function describeScanResponse(status: number): ResponseNote | undefined {
  const hint = authHint(status);
  return hint === undefined ? undefined : { hint };
}
