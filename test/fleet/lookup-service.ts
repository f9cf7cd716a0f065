import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Loopback, startLoopback } from '../helpers/loopback.js';

/** One request the test service saw: its hash and when it arrived (ms since the epoch). */
export interface Arrival {
  readonly hash: string;
  readonly at: number;
}

/** The verdict the test service gives `hash`: a hit for about one hash in eight. */
export const isHit = (hash: string): boolean => hash.endsWith('0') || hash.endsWith('8');

/**
 * A real loopback lookup service shared by replica processes: answers after
 * `latencyMs`, records every arrival, and lets a test answer some requests
 * itself (`override`, e.g. a 429).
 */
export async function startLookupService(
  latencyMs: number,
  override?: (hash: string, count: number, response: ServerResponse) => boolean,
  hit: (hash: string) => boolean = isHit,
): Promise<Loopback & { arrivals: Arrival[] }> {
  const arrivals: Arrival[] = [];
  const loopback = await startLoopback((request: IncomingMessage, response: ServerResponse) => {
    const hash = new URL(request.url ?? '/', 'http://x').searchParams.get('hash') ?? '';
    arrivals.push({ hash, at: Date.now() });
    if (override?.(hash, arrivals.length, response)) return;
    const body = hit(hash)
      ? { status: 'success', is_virus: true, source: 'engine-x' }
      : { status: 'success', is_virus: false, message: 'No active service detected this file' };
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    }, latencyMs);
  });
  return Object.assign(loopback, { arrivals });
}
