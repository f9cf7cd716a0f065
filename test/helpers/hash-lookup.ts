import { HttpResponse, http, type JsonBodyType } from 'msw';
import type { SetupServer } from 'msw/node';
import { HashScanClient, type HashScanClientOptions } from '../../src/hashscan/hashscan-client.js';

export const BASE_URL = 'https://hashscan.test';
export const API_KEY = 'test-api-key-0123';

export const MD5 = '44d88612fea8a8f36de82e1278abb02f';
export const SHA1 = '3395856ce81f2b7382dee72602f798b642f14140';
export const SHA256 = '275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f';

export const NOT_DETECTED = { status: 'success', is_virus: false, message: 'No active service detected this file' };

export const HIT = {
  status: 'success',
  is_virus: true,
  source: 'engine-x',
  data: { sha256: SHA256, md5: MD5, sha1: SHA1, first_seen: '2024-01-02 03:04:05', last_seen: '2024-06-07 08:09:10' },
};

/** A client with fast retries and no cache unless a test asks otherwise. */
export function makeClient(options: HashScanClientOptions = {}): HashScanClient {
  return new HashScanClient({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 },
    cache: false,
    ...options,
  });
}

export interface Recorded {
  readonly hash: string | null;
  readonly apiKey: string | null;
  readonly url: string;
}

/** Serves `/hash_scan` with `respond` and records every request it sees. */
export function serveLookup(
  server: SetupServer,
  respond: (hash: string, call: number) => Response | Promise<Response>,
): Recorded[] {
  const requests: Recorded[] = [];
  server.use(
    http.get(`${BASE_URL}/hash_scan`, ({ request }) => {
      const url = new URL(request.url);
      requests.push({ hash: url.searchParams.get('hash'), apiKey: url.searchParams.get('api_key'), url: request.url });
      return respond(url.searchParams.get('hash') ?? '', requests.length);
    }),
  );
  return requests;
}

/** Answers every lookup with the same JSON body and status. */
export function json(body: JsonBodyType, status = 200, headers: Record<string, string> = {}): Response {
  return HttpResponse.json(body, { status, headers });
}
