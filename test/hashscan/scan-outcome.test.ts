import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashScanError } from '../../src/errors/hashscan-error.js';
import { decide } from '../../src/hashscan/decide.js';
import { HIT, json, MD5, makeClient, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';
import { useTempDir } from '../helpers/temp-dir.js';

const server = useMswServer();
const dir = useTempDir();
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

describe('scanOutcome', () => {
  it('resolves answers as they are and feeds decide() directly', async () => {
    serveLookup(server, (hash) => json(hash === SHA256 ? HIT : NOT_DETECTED));
    const client = makeClient();
    const hit = await client.scanOutcome(SHA256);
    expect(hit).toMatchObject({ verdict: 'malicious', hash: SHA256 });
    expect(decide(hit)).toBe('block');
    expect(decide(await client.scanOutcome('a'.repeat(64)))).toBe('allow');
  });

  it('never rejects: an abnormal answer, an invalid hash and an abort become error outcomes', async () => {
    const requests = serveLookup(server, () => json({ status: 'error', is_virus: false }));
    const client = makeClient({ retry: false });
    const abnormal = await client.scanOutcome(SHA256);
    expect(abnormal).toMatchObject({ verdict: 'error', hash: SHA256, error: { code: 'STATUS_NOT_SUCCESS' } });
    expect(abnormal.verdict === 'error' && abnormal.error).toBeInstanceOf(HashScanError);
    expect(decide(abnormal)).toBe('review');

    const invalid = await client.scanOutcome('sha256:xyz');
    expect(invalid).toMatchObject({ verdict: 'error', hash: 'sha256:xyz', error: { code: 'INVALID_HASH' } });
    const notAString = await client.scanOutcome(null as unknown as string);
    expect(notAString).toMatchObject({ verdict: 'error', error: { code: 'INVALID_HASH' } });

    const aborted = await client.scanOutcome(MD5, { signal: AbortSignal.abort() });
    expect(aborted).toMatchObject({ verdict: 'error', error: { code: 'ABORTED' } });
    expect(requests).toHaveLength(1);
  });
});

describe('scanFile', () => {
  it('hashes the file (SHA-256 by default) and looks it up in one call', async () => {
    const requests = serveLookup(server, (hash) => json(hash === SHA256 || hash === MD5 ? HIT : NOT_DETECTED));
    const path = join(dir, 'eicar.txt');
    writeFileSync(path, EICAR);
    const client = makeClient();
    const outcome = await client.scanFile(path);
    expect(outcome).toMatchObject({ verdict: 'malicious', hash: SHA256, algorithm: 'sha256', path });
    expect(decide(outcome)).toBe('block');
    expect(await client.scanFile(path, { algorithm: 'md5' })).toMatchObject({ verdict: 'malicious', hash: MD5 });
    expect(requests.map((request) => request.hash)).toEqual([SHA256, MD5]);

    const clean = join(dir, 'clean.txt');
    writeFileSync(clean, 'hello');
    expect(decide(await client.scanFile(clean))).toBe('allow');
  });

  it('turns an unreadable file into a FILE_UNREADABLE outcome and sends nothing', async () => {
    const requests = serveLookup(server, () => json(NOT_DETECTED));
    const client = makeClient();
    const missing = await client.scanFile(join(dir, 'missing.bin'));
    expect(missing).toMatchObject({ verdict: 'error', hash: '', error: { code: 'FILE_UNREADABLE' } });
    expect(missing.verdict === 'error' && missing.error.message).toMatch(/ENOENT/);
    const folder = join(dir, 'a-directory');
    mkdirSync(folder);
    expect(await client.scanFile(folder)).toMatchObject({ verdict: 'error', error: { code: 'FILE_UNREADABLE' } });
    expect(await client.scanFile('')).toMatchObject({ verdict: 'error', error: { code: 'FILE_UNREADABLE' } });
    expect(decide(missing)).toBe('review');
    expect(requests).toEqual([]);
  });

  it('passes a failed lookup through as an error outcome with the path', async () => {
    serveLookup(server, () => json({ oops: true }, 503));
    const path = join(dir, 'eicar-503.txt');
    writeFileSync(path, EICAR);
    const outcome = await makeClient({ retry: false }).scanFile(path);
    expect(outcome).toMatchObject({
      verdict: 'error',
      hash: SHA256,
      path,
      error: { code: 'HTTP_STATUS', status: 503 },
    });
  });
});
