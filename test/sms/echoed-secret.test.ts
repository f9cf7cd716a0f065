import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { SmsClient } from '../../src/sms/index.js';
import { JSON_WRITERS, views } from '../helpers/json-writers.js';
import { useMswServer } from '../helpers/msw.js';
import { BASE_URL, REQUEST, readRequest } from './sms-service.js';

const server = useMswServer();

// Base64 secrets and signatures hold `/`, `+` and `=`: what JSON writers and URL encoders escape.
const SECRET = 'SENTINEL/s3cret+b64=';

/** Serves every send with `answer(signature)` and records the signatures sent. */
function serve(answer: (signature: string) => { status: number; body: unknown }, write: (body: unknown) => string) {
  const signatures: string[] = [];
  server.use(
    http.all(`${BASE_URL}/`, async ({ request }) => {
      const signature = (await readRequest(request)).params.Signature ?? '';
      signatures.push(signature);
      const { status, body } = answer(signature);
      return new HttpResponse(write(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return signatures;
}

function expectNoSecret(text: string, signatures: readonly string[]): void {
  expect(signatures.length).toBeGreaterThan(0);
  for (const secret of [SECRET, ...signatures]) {
    for (const spelling of [secret, encodeURIComponent(secret)]) expect(text).not.toContain(spelling);
  }
  expect(text).not.toContain('s3cret');
}

const client = () =>
  new SmsClient({ accessKeyId: 'LTAI5tKEYID42', accessKeySecret: SECRET, baseUrl: BASE_URL, retry: false });

describe.each(Object.entries(JSON_WRITERS))(
  'a service that echoes the secret and the signature (%s JSON)',
  (_w, write) => {
    it('in the body excerpt of an HTTP_STATUS error', async () => {
      const signatures = serve(
        (signature) => ({ status: 502, body: { error: 'bad gateway', signature, SECRET } }),
        write,
      );
      const error = await client()
        .send(REQUEST)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 502 });
      expect((error as { body: string }).body).toContain('***');
      expectNoSecret(views(error), signatures);
    });

    it('in the Message and RequestId of a success', async () => {
      const signatures = serve(
        (signature) => ({
          status: 200,
          body: { Code: 'OK', Message: `signed ${signature} with ${SECRET}`, RequestId: SECRET },
        }),
        write,
      );
      const result = await client().send(REQUEST);
      expect(result).toMatchObject({ code: 'OK', message: 'signed *** with ***', requestId: '***' });
      expectNoSecret(views(result), signatures);
    });
  },
);
