/**
 * Drives the Hono app in-process with `app.request()` against the services named on the command
 * line (a JSON AppConfig as the last argument, or a Worker's `env.CONFIG`), and prints what each
 * request answered as one JSON line. Bundled by app.test.ts and run under Node, Bun, Deno and workerd.
 */
import { type AppConfig, createApp } from './app.js';

const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

export async function check(config: AppConfig): Promise<Record<string, unknown>> {
  const app = createApp(config);
  const upload = async (content: string) => {
    const form = new FormData();
    form.append('file', new File([content], 'upload.bin'));
    const response = await app.request('/upload', { method: 'POST', body: form });
    return response.status;
  };
  const post = (path: string, body: unknown) =>
    app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const otp = await post('/otp', { phone: '13800000000' });
  const resend = await post('/otp', { phone: '+86 138 0000 0000' });
  // A code of another length never matches.
  const wrong = await post('/otp/check', { phone: '13800000000', code: '0' });
  return {
    clean: await upload('hello'),
    eicar: await upload(EICAR),
    tooLarge: await upload('x'.repeat(1024 * 1024 + 1)),
    otp: otp.status,
    otpSent: ((await otp.json()) as { sent?: boolean }).sent,
    resend: resend.status,
    resendRetryAfter: resend.headers.get('retry-after'),
    wrongCode: wrong.status,
  };
}

export default {
  async fetch(_request: Request, env: { CONFIG: string }): Promise<Response> {
    return Response.json(await check(JSON.parse(env.CONFIG) as AppConfig));
  },
};
