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
  const otp = await app.request('/otp', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone: '13800000000' }),
  });
  return {
    clean: await upload('hello'),
    eicar: await upload(EICAR),
    tooLarge: await upload('x'.repeat(1024 * 1024 + 1)),
    otp: otp.status,
    otpSent: ((await otp.json()) as { sent?: string }).sent,
  };
}

export default {
  async fetch(_request: Request, env: { CONFIG: string }): Promise<Response> {
    return Response.json(await check(JSON.parse(env.CONFIG) as AppConfig));
  },
};
