import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SmsClient, type SmsClientOptions } from '../../src/sms/index.js';
import {
  type ConnectionBehaviour,
  createTestCertificate,
  httpsFetch,
  startTlsLoopback,
  type TestCertificate,
  type TlsBehaviour,
  type TlsLoopback,
} from '../helpers/tls-loopback.js';
import { ACCESS_KEY_ID, ACCESS_KEY_SECRET, REQUEST, rejection } from './sms-service.js';

// A real TLS server with a certificate made for this run. "A message is never
// sent twice": a TLS failure after the request was read must leave the outcome
// unknown and not be re-sent; only a failure that proves nothing was written
// (a handshake that failed) may be re-sent.

let certificate: TestCertificate;
let trusting: Agent;
let untrusting: Agent;
beforeAll(() => {
  certificate = createTestCertificate();
  trusting = new Agent({ connect: { ca: certificate.cert } });
  untrusting = new Agent();
});
afterAll(async () => {
  await Promise.all([trusting.close(), untrusting.close()]);
});

let server: TlsLoopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const serve = async (behaviour: TlsBehaviour, connection?: ConnectionBehaviour): Promise<TlsLoopback> => {
  server = await startTlsLoopback(certificate, behaviour, connection);
  return server;
};

/** A client with the default retry and time-out settings. */
const client = (baseUrl: string, options: Partial<SmsClientOptions>): SmsClient =>
  new SmsClient({ accessKeyId: ACCESS_KEY_ID, accessKeySecret: ACCESS_KEY_SECRET, baseUrl, ...options });

type Via = (trust: boolean) => Partial<SmsClientOptions>;
/** The three ways a request can go: the undici dispatcher, fetch over undici, and a node:https fetch. */
const VIAS: [string, Via][] = [
  ['undici dispatcher', (trust) => ({ dispatcher: trust ? trusting : untrusting })],
  [
    'fetch with an undici dispatcher',
    (trust) => ({
      fetch: (input, init) =>
        globalThis.fetch(input, { ...init, dispatcher: trust ? trusting : untrusting } as RequestInit),
    }),
  ],
  ['fetch over node:https', (trust) => ({ fetch: httpsFetch(trust ? certificate.cert : undefined) })],
];

/** The innermost `code` of an error's cause chain. */
const innermostCode = (error: unknown): unknown => {
  let code: unknown;
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    code = (current as { code?: unknown }).code ?? code;
  }
  return code;
};

describe('a TLS failure after the service read the request', () => {
  it.each(VIAS)('via %s: a forged record mid-response is OUTCOME_UNKNOWN, sent once', async (_name, via) => {
    const tls = await serve('corrupt-record');
    const error = await rejection(client(tls.url, via(true)).send(REQUEST));
    expect(error).toMatchObject({ code: 'OUTCOME_UNKNOWN', outcome: 'unknown', attempts: 1 });
    expect(error.message).toContain('may have been sent');
    expect(tls.requests()).toBe(1);
    expect(tls.connections()).toBe(1);
  });

  it('over node:https the client sees the OpenSSL record error itself, and still sends once', async () => {
    const tls = await serve('corrupt-record');
    const error = await rejection(client(tls.url, { fetch: httpsFetch(certificate.cert) }).send(REQUEST));
    expect(innermostCode(error)).toBe('ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC');
    expect(error).toMatchObject({ code: 'OUTCOME_UNKNOWN', outcome: 'unknown', attempts: 1 });
    expect(tls.requests()).toBe(1);
  });

  it('a garbage record header mid-response (ERR_SSL_WRONG_VERSION_NUMBER) is not a handshake failure', async () => {
    const tls = await serve('corrupt-header');
    const error = await rejection(client(tls.url, { fetch: httpsFetch(certificate.cert) }).send(REQUEST));
    expect(innermostCode(error)).toBe('ERR_SSL_WRONG_VERSION_NUMBER');
    expect(error).toMatchObject({ code: 'OUTCOME_UNKNOWN', outcome: 'unknown', attempts: 1 });
    expect(tls.requests()).toBe(1);
  });

  it.each(VIAS)('via %s: a trusted server that answers is a success (the set-up works)', async (_name, via) => {
    const tls = await serve('answer');
    await expect(client(tls.url, via(true)).send(REQUEST)).resolves.toMatchObject({ code: 'OK', attempts: 1 });
    expect(tls.requests()).toBe(1);
  });
});

describe('a TLS handshake that fails sent nothing', () => {
  it.each(VIAS)(
    'via %s: an untrusted certificate is NETWORK, not_sent, retried per the defaults',
    async (_name, via) => {
      const tls = await serve('answer');
      const error = await rejection(client(tls.url, via(false)).send(REQUEST));
      expect(error).toMatchObject({ code: 'NETWORK', outcome: 'not_sent', attempts: 3 });
      expect(error.message).toContain('nothing was sent');
      expect(innermostCode(error)).toMatch(/SELF_SIGNED/);
      expect(tls.requests()).toBe(0);
      expect(tls.connections()).toBe(3);
    },
  );

  it('the dispatcher knows a request never reached a socket: a connection dropped mid-handshake is re-sent', async () => {
    const tls = await serve('answer', 'drop-in-handshake');
    const error = await rejection(client(tls.url, { dispatcher: trusting }).send(REQUEST));
    expect(innermostCode(error)).toBe('ECONNRESET');
    expect(error).toMatchObject({ code: 'NETWORK', outcome: 'not_sent', attempts: 3 });
    expect(tls.connections()).toBe(3);
  });

  it('fetch cannot tell, so the same drop stays OUTCOME_UNKNOWN and is sent once', async () => {
    const tls = await serve('answer', 'drop-in-handshake');
    const error = await rejection(client(tls.url, VIAS[1]?.[1](true) ?? {}).send(REQUEST));
    expect(error).toMatchObject({ code: 'OUTCOME_UNKNOWN', outcome: 'unknown', attempts: 1 });
    expect(tls.connections()).toBe(1);
  });

  it('a plain-HTTP port: the dispatcher knows nothing was written (re-sent); fetch only has an ambiguous code', async () => {
    const tls = await serve('answer', 'plain-http');
    const viaDispatcher = await rejection(client(tls.url, { dispatcher: trusting }).send(REQUEST));
    expect(innermostCode(viaDispatcher)).toBe('ERR_SSL_WRONG_VERSION_NUMBER');
    expect(viaDispatcher).toMatchObject({ code: 'NETWORK', outcome: 'not_sent', attempts: 3 });
    const viaFetch = await rejection(client(tls.url, VIAS[1]?.[1](true) ?? {}).send(REQUEST));
    expect(viaFetch).toMatchObject({ code: 'OUTCOME_UNKNOWN', outcome: 'unknown', attempts: 1 });
    expect(tls.connections()).toBe(4);
  });
});
