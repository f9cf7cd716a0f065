import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { SANDBOX_API_KEY } from '../../sandbox/index.js';
import { UsageError } from '../usage-error.js';

/*
 * Results travel from workers to the producer through Redis: each is sealed
 * with an HMAC-SHA-256 under a key both sides derive from a secret they
 * share (`HASHSCAN_QUEUE_SECRET`, else the API key), the run id and the run's
 * nonce (a random value the run's first producer draws: a record of an
 * earlier run under the same id never verifies), bound to its chunk and
 * line. A record also names the key it was sealed with by a short id (a
 * digest of the key, not the key), so that a worker started with another
 * secret is told apart from a forgery or a record of another run. A record that does not verify is
 * never a verdict: whoever can write to Redis cannot make a line clean.
 *
 * A record is `q2.<key id>.<mac>.<json>`; the run's record (its meta) is
 * `q2.<mac>.<json>` under a key of the secret and the run id alone.
 */

const FORMAT = 'q2';
const MAC_LENGTH = 43; // base64url of 32 bytes, unpadded
const KEY_ID_LENGTH = 11; // base64url of 8 bytes, unpadded

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

/** The key of one run: the secret, the run id and the run's nonce. */
export function runKey(secret: string, runId: string, nonce: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'hashscan-sms queue results v2', `${runId}\n${nonce}`, 32));
}

/** The key the run's own record (its meta) is sealed with. */
export function metaSealKey(secret: string, runId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'hashscan-sms queue run v2', runId, 32));
}

/**
 * A short public id of the secret (a digest, not the secret): a worker with
 * another secret shows another id, whatever the run.
 */
export function keyId(secret: string): string {
  return Buffer.from(hkdfSync('sha256', secret, 'hashscan-sms queue key id v2', '', 8)).toString('base64url');
}

function mac(key: Buffer, bound: string, json: string): string {
  return createHmac('sha256', key).update(`${FORMAT}\n${bound}\n`).update(json).digest('base64url');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The sealed record of one line's result; `id` is the secret's `keyId`. */
export function sealRecord(key: Buffer, id: string, chunk: number, line: number, json: string): string {
  return `${FORMAT}.${id}.${mac(key, `${chunk}\n${line}`, json)}.${json}`;
}

/** What a stored record is: its JSON text when it verifies, or why not. */
export type Opened = { readonly json: string } | { readonly refused: 'other-key' | 'bad' };

/** Opens the record of this chunk and line; a record naming another secret's `keyId` is told apart. */
export function openRecord(key: Buffer, id: string, chunk: number, line: number, stored: string): Opened {
  const head = FORMAT.length + 1;
  const macAt = head + KEY_ID_LENGTH + 1;
  const jsonAt = macAt + MAC_LENGTH + 1;
  if (
    stored.length <= jsonAt ||
    !stored.startsWith(`${FORMAT}.`) ||
    stored[macAt - 1] !== '.' ||
    stored[jsonAt - 1] !== '.'
  ) {
    return { refused: 'bad' };
  }
  const json = stored.slice(jsonAt);
  if (same(stored.slice(macAt, jsonAt - 1), mac(key, `${chunk}\n${line}`, json))) return { json };
  return { refused: same(stored.slice(head, macAt - 1), id) ? 'bad' : 'other-key' };
}

/** The run's record, sealed. */
export function sealMeta(key: Buffer, json: string): string {
  return `${FORMAT}.${mac(key, 'meta', json)}.${json}`;
}

/** The JSON text of a run's record that verifies, else `undefined`. */
export function openMeta(key: Buffer, stored: string): string | undefined {
  const jsonAt = FORMAT.length + 1 + MAC_LENGTH + 1;
  if (stored.length <= jsonAt || !stored.startsWith(`${FORMAT}.`) || stored[jsonAt - 1] !== '.') return undefined;
  const json = stored.slice(jsonAt);
  return same(stored.slice(FORMAT.length + 1, jsonAt - 1), mac(key, 'meta', json)) ? json : undefined;
}
