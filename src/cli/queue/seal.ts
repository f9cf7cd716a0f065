import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { SANDBOX_API_KEY } from '../../sandbox/index.js';
import { UsageError } from '../usage-error.js';

/*
 * Results travel from workers to the producer through Redis: each is sealed
 * with an HMAC-SHA-256 under a key both sides derive from a secret they
 * share (`HASHSCAN_QUEUE_SECRET`, else the API key) and the run id, bound to
 * its chunk and line. A record that does not verify is an error row, never a
 * verdict: whoever can write to Redis cannot make a line clean.
 */

const MAC_LENGTH = 43; // base64url of 32 bytes, unpadded

/** The secret results are sealed with: `HASHSCAN_QUEUE_SECRET`, else the API key the command uses. */
export function queueSecret(
  flags: { readonly sandbox?: boolean | undefined; readonly 'api-key'?: string | undefined },
  env: NodeJS.ProcessEnv,
): string {
  const secret =
    env.HASHSCAN_QUEUE_SECRET ||
    (flags.sandbox === true ? SANDBOX_API_KEY : (flags['api-key'] ?? env.HASHSCAN_API_KEY));
  if (secret === undefined || secret === '') {
    throw new UsageError(
      '--queue needs HASHSCAN_QUEUE_SECRET or the API key (--api-key, HASHSCAN_API_KEY) to seal and check results',
    );
  }
  return secret;
}

/** The key of one run. */
export function runKey(secret: string, runId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'hashscan-sms queue results v1', runId, 32));
}

function mac(key: Buffer, chunk: number, line: number, json: string): string {
  return createHmac('sha256', key).update(`${chunk}\n${line}\n`).update(json).digest('base64url');
}

/** `<mac>.<json>` for one line's result. */
export function sealRecord(key: Buffer, chunk: number, line: number, json: string): string {
  return `${mac(key, chunk, line, json)}.${json}`;
}

/** The JSON text of a sealed record that verifies for this chunk and line, else `undefined`. */
export function openRecord(key: Buffer, chunk: number, line: number, stored: string): string | undefined {
  if (stored.length <= MAC_LENGTH + 1 || stored[MAC_LENGTH] !== '.') return undefined;
  const json = stored.slice(MAC_LENGTH + 1);
  const expected = Buffer.from(mac(key, chunk, line, json));
  const given = Buffer.from(stored.slice(0, MAC_LENGTH));
  return given.length === expected.length && timingSafeEqual(given, expected) ? json : undefined;
}
