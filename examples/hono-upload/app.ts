/**
 * A Hono service with an upload check and a one-time code by SMS, the same code on Node, Bun,
 * Deno and Cloudflare Workers (no `nodejs_compat`): `POST /upload` (multipart, field `file`) hashes
 * the file with `hashUpload` (at most MAX_BYTES), looks it up and answers 201 / 413 / 422 / 503;
 * `POST /otp` (JSON `{ phone }`) sends a six-digit code once (`SmsClient` never sends twice).
 *
 * `createApp(config)` takes its settings as arguments: each runtime reads them its own way
 * (`process.env`, `Deno.env`, a Worker's `env`).
 */

import { decide, HashScanClient, hashUpload, SmsClient, SmsError, TruncatedStreamError } from 'hashscan-sms';
import { Hono } from 'hono';

export interface AppConfig {
  readonly hashScan: { readonly baseUrl: string; readonly apiKey: string };
  readonly sms: { readonly baseUrl: string; readonly accessKeyId: string; readonly accessKeySecret: string };
  readonly templateCode: string;
}

const MAX_BYTES = 1024 * 1024;

export function createApp(config: AppConfig): Hono {
  const scanner = new HashScanClient(config.hashScan);
  const sms = new SmsClient(config.sms);
  const app = new Hono();

  app.post('/upload', async (c) => {
    const form = await c.req.formData();
    const file = form.get('file');
    if (!(file instanceof Blob)) return c.json({ error: 'a multipart field `file` is required' }, 400);
    let sha256: string;
    try {
      sha256 = await hashUpload(file, { maxBytes: MAX_BYTES });
    } catch (error) {
      if (error instanceof TruncatedStreamError) return c.json({ error: 'too large' }, 413);
      throw error;
    }
    const decision = decide(await scanner.scanOutcome(sha256));
    // Only an allowed file goes on; a lookup without a trustworthy answer is refused, never waved through.
    const status = decision === 'allow' ? 201 : decision === 'block' ? 422 : 503;
    return c.json({ decision, sha256 }, status);
  });

  app.post('/otp', async (c) => {
    const { phone } = await c.req.json<{ phone?: unknown }>();
    if (typeof phone !== 'string') return c.json({ error: '`phone` is required' }, 400);
    const code = String((crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % 1_000_000).padStart(6, '0');
    try {
      const sent = await sms.send({ phoneNumbers: phone, templateCode: config.templateCode, templateParam: { code } });
      return c.json({ sent: sent.code, requestId: sent.requestId });
    } catch (error) {
      if (error instanceof SmsError) return c.json({ error: error.code, outcome: error.outcome }, 502);
      throw error;
    }
  });
  return app;
}
