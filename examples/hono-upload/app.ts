/**
 * A Hono service with an upload check and a one-time code by SMS, the same code on Node, Bun,
 * Deno and Cloudflare Workers (no `nodejs_compat`): `POST /upload` (multipart, field `file`) refuses
 * a declared `Content-Length` past the limit before reading the body, hashes the file with
 * `hashUpload` (at most MAX_BYTES), looks it up and answers 201 / 413 / 422 / 503; `POST /otp`
 * (JSON `{ phone }`) sends a code with `OtpVerifier` and `POST /otp/check` (JSON `{ phone, code }`)
 * checks it, each failure answered from one table (otp-answer.ts, docs/verification-codes.md).
 *
 * `createApp(config)` takes its settings as arguments: each runtime reads them its own way
 * (`process.env`, `Deno.env`, a Worker's `env`).
 */

import {
  decide,
  HashScanClient,
  hashUpload,
  OtpVerifier,
  SmsClient,
  SmsError,
  TruncatedStreamError,
} from 'hashscan-sms';
import { type Context, Hono } from 'hono';
import { checkAnswer, type HttpAnswer, smsErrorAnswer } from './otp-answer.js';

export interface AppConfig {
  readonly hashScan: { readonly baseUrl: string; readonly apiKey: string };
  readonly sms: { readonly baseUrl: string; readonly accessKeyId: string; readonly accessKeySecret: string };
  readonly templateCode: string;
}

const MAX_BYTES = 1024 * 1024;
/** Room for the multipart boundaries and headers around the file. */
const FORM_OVERHEAD = 16 * 1024;
const RESEND_COOLDOWN_MS = 30_000;

const answer = (c: Context, { status, retryAfterSeconds, body }: HttpAnswer): Response => {
  if (retryAfterSeconds !== undefined) c.header('Retry-After', String(retryAfterSeconds));
  return c.json(body, status as 200);
};

export function createApp(config: AppConfig): Hono {
  const scanner = new HashScanClient(config.hashScan);
  const sms = new SmsClient(config.sms);
  const verifier = new OtpVerifier({ sms, templateCode: config.templateCode, resendCooldownMs: RESEND_COOLDOWN_MS });
  const app = new Hono();

  app.post('/upload', async (c) => {
    // formData() reads the whole body first: a declared size past the limit is refused before it is read.
    const declared = Number(c.req.header('content-length') ?? Number.NaN);
    if (declared > MAX_BYTES + FORM_OVERHEAD) return c.json({ error: 'too large' }, 413);
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
    try {
      // The caller feeds the client's per-caller limits where it has them.
      await verifier.send({ phoneNumber: phone, caller: c.req.header('x-forwarded-for') ?? 'unknown' });
      return c.json({ sent: true });
    } catch (error) {
      if (error instanceof SmsError) return answer(c, smsErrorAnswer(error, RESEND_COOLDOWN_MS));
      throw error;
    }
  });

  app.post('/otp/check', async (c) => {
    const { phone, code } = await c.req.json<{ phone?: unknown; code?: unknown }>();
    if (typeof phone !== 'string' || typeof code !== 'string')
      return c.json({ error: '`phone` and `code` are required' }, 400);
    try {
      return answer(c, checkAnswer(await verifier.check({ phoneNumber: phone, code })));
    } catch (error) {
      if (error instanceof SmsError) return answer(c, smsErrorAnswer(error, RESEND_COOLDOWN_MS));
      throw error;
    }
  });
  return app;
}
