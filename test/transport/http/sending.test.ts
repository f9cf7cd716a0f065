import { afterEach, describe, expect, it, vi } from 'vitest';
import { HashScanClient } from '../../../src/hashscan/hashscan-client.js';
import { NOT_DETECTED } from '../../helpers/hash-lookup.js';
import { type Loopback, startLoopback } from '../../helpers/loopback.js';

// On the default path ky's `beforeRequest` hook sends the attempt's own `fetch` and hands ky the
// response: ky never clones its `Request` (a `Request` and a signal registration per request),
// while `fetch` is still looked up per request and gets the attempt's URL, headers and signal.

let server: Loopback | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const HASH = 'a'.repeat(64);

describe('the default path (ky over fetch)', () => {
  it('sends through fetch without ky cloning its Request', async () => {
    server = await startLoopback((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(NOT_DETECTED));
    });
    const clone = vi.spyOn(Request.prototype, 'clone');
    const sent: { url: string; init: RequestInit | undefined }[] = [];
    const original = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      sent.push({ url: String(input), init });
      return original(input, init);
    });
    const client = new HashScanClient({ baseUrl: server.url, apiKey: 'key', cache: false });
    await expect(client.scanMany([HASH, 'b'.repeat(64)])).resolves.toMatchObject([
      { verdict: 'not_detected' },
      { verdict: 'not_detected' },
    ]);
    expect(clone).not.toHaveBeenCalled();
    expect(sent).toHaveLength(2);
    expect(sent[0]?.url).toBe(`${server.url}/hash_scan?api_key=key&hash=${HASH}`);
    expect(sent[0]?.init).toMatchObject({ method: 'GET', redirect: 'manual', headers: { accept: 'application/json' } });
    expect(sent[0]?.init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('gives a custom fetch the Request ky built, with the signal and headers', async () => {
    const seen: Request[] = [];
    const fetch = async (input: Request): Promise<Response> => {
      seen.push(input);
      return Response.json(NOT_DETECTED);
    };
    const client = new HashScanClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'key', cache: false, fetch });
    await expect(client.scan(HASH)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.headers.get('accept')).toBe('application/json');
    expect(seen[0]?.signal.aborted).toBe(false);
  });
});

describe('a global fetch whose Response is not the runtime own class (undici from npm, a polyfill)', () => {
  it('still sends each attempt once', async () => {
    server = await startLoopback((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(NOT_DETECTED));
    });
    const undici = await import('undici');
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (input, init) => undici.fetch(String(input), init as never) as unknown as Promise<Response>,
    );
    const client = new HashScanClient({ baseUrl: server.url, apiKey: 'key', cache: false });
    await expect(client.scan(HASH)).resolves.toMatchObject({ verdict: 'not_detected' });
    expect(server.hits()).toBe(1);
  });
});
