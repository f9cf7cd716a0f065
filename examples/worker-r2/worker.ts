/**
 * A Cloudflare Worker that checks an upload before writing it to R2: `PUT /files/<name>` hashes the
 * body (at most MAX_BYTES), asks the lookup service, and stores the file only when the answer
 * allows it. Runs without `nodejs_compat`. Bindings: `UPLOADS` (an R2 bucket), `HASHSCAN_API_KEY`
 * and `HASHSCAN_BASE_URL` (secrets / vars).
 *
 * Answers: 201 stored; 413 too large; 422 flagged (block); 503 no trustworthy answer (review:
 * the upload is refused, never stored unchecked).
 */
import { decide, HashScanClient, hashUpload, TruncatedStreamError } from 'hashscan-sms';

/** The part of R2's binding this Worker uses (`@cloudflare/workers-types` has the whole of it). */
export interface R2BucketLike {
  put(key: string, value: ArrayBuffer, options?: { sha256?: string }): Promise<unknown>;
}

export interface Env {
  readonly UPLOADS: R2BucketLike;
  readonly HASHSCAN_API_KEY: string;
  readonly HASHSCAN_BASE_URL: string;
}

const MAX_BYTES = 1024 * 1024;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    const name = pathname.startsWith('/files/') ? decodeURIComponent(pathname.slice('/files/'.length)) : '';
    if (request.method !== 'PUT' || name === '' || name.includes('/'))
      return new Response('not found', { status: 404 });
    const declared = Number(request.headers.get('content-length') ?? Number.NaN);
    if (declared > MAX_BYTES) return new Response('too large', { status: 413 });
    const bytes = await request.arrayBuffer();
    let sha256: string;
    try {
      sha256 = await hashUpload(new Blob([bytes]), { maxBytes: MAX_BYTES });
    } catch (error) {
      if (error instanceof TruncatedStreamError) return new Response('too large', { status: 413 });
      throw error;
    }
    const scanner = new HashScanClient({ baseUrl: env.HASHSCAN_BASE_URL, apiKey: env.HASHSCAN_API_KEY });
    const outcome = await scanner.scanOutcome(sha256);
    const decision = decide(outcome);
    if (decision === 'block') return Response.json({ decision, sha256 }, { status: 422 });
    if (decision !== 'allow') return Response.json({ decision, sha256 }, { status: 503 });
    // R2 checks the SHA-256 it is given against the bytes it stores.
    await env.UPLOADS.put(name, bytes, { sha256 });
    return Response.json({ decision, sha256 }, { status: 201 });
  },
};
