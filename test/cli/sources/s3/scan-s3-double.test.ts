import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eicarTestFile } from '../../../../src/sandbox/index.js';
import { parseNdjson, runCli } from '../../run-cli.js';
import { type DoubleObject, type S3Double, startS3Double } from './s3-double.js';

const EICAR = Buffer.from(eicarTestFile());
const CLEAN = Buffer.from('a clean object\n');
const md5 = (bytes: Buffer | string): string => createHash('md5').update(bytes).digest('hex');
const sha256 = (bytes: Buffer | string, encoding: 'hex' | 'base64' = 'hex'): string =>
  createHash('sha256').update(bytes).digest(encoding);
const EICAR_SHA256 = sha256(EICAR);
const EICAR_MD5 = md5(EICAR);
const ENV = {
  AWS_ACCESS_KEY_ID: 'double-access-key',
  AWS_SECRET_ACCESS_KEY: 'double-SECRET-key',
  AWS_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
};

/** Every case an object can be in, most of them the EICAR file: a wrong digest would let it through. */
const CASES: Readonly<Record<string, DoubleObject>> = {
  'full-object-checksum.bin': {
    body: EICAR,
    etag: `${md5('parts')}-2`,
    headers: { 'x-amz-checksum-sha256': sha256(EICAR, 'base64'), 'x-amz-checksum-type': 'FULL_OBJECT' },
    noDownload: true,
  },
  'composite-checksum.bin': {
    body: EICAR,
    etag: `${md5('parts')}-3`,
    headers: { 'x-amz-checksum-sha256': `${sha256('parts', 'base64')}-3`, 'x-amz-checksum-type': 'COMPOSITE' },
  },
  'plain-etag.bin': { body: EICAR, etag: EICAR_MD5, noDownload: true },
  'sse-s3.txt': {
    body: CLEAN,
    etag: md5(CLEAN),
    headers: { 'x-amz-server-side-encryption': 'AES256' },
    noDownload: true,
  },
  // Under SSE-KMS and SSE-C the ETag is 32 hex digits that are not the MD5 of the bytes.
  'sse-kms.bin': { body: EICAR, etag: md5('kms'), headers: { 'x-amz-server-side-encryption': 'aws:kms' } },
  'sse-c.bin': {
    body: EICAR,
    etag: md5('sse-c'),
    headers: { 'x-amz-server-side-encryption-customer-algorithm': 'AES256' },
  },
  'multipart.bin': { body: EICAR, etag: `${md5('parts')}-2` },
};

const EXPECTED: Readonly<Record<string, { digestSource: string; decision: string }>> = {
  'full-object-checksum.bin': { digestSource: 'checksum-sha256', decision: 'block' },
  'composite-checksum.bin': { digestSource: 'download', decision: 'block' },
  'plain-etag.bin': { digestSource: 'etag-md5', decision: 'block' },
  'sse-s3.txt': { digestSource: 'etag-md5', decision: 'allow' },
  'sse-kms.bin': { digestSource: 'download', decision: 'block' },
  'sse-c.bin': { digestSource: 'download', decision: 'block' },
  'multipart.bin': { digestSource: 'download', decision: 'block' },
};

const cleanObjects = (count: number): Record<string, DoubleObject> =>
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => {
      const body = Buffer.from(`clean object ${i}\n`);
      return [`obj-${i}.txt`, { body, etag: md5(body) }];
    }),
  );

let double: S3Double;

beforeAll(async () => {
  const big = Buffer.alloc(1000, 7);
  double = await startS3Double({
    cases: { objects: CASES },
    // Pages of 3: the second page is refused.
    cut: { objects: cleanObjects(7), failPage: 2 },
    paged: { objects: cleanObjects(7) },
    short: {
      objects: {
        'cut-connection.bin': { body: big, etag: `${md5('p')}-2`, cutAfter: 500 },
        'shorter-body.bin': { body: big, etag: `${md5('q')}-2`, served: big.subarray(0, 600) },
      },
    },
  });
});

afterAll(async () => {
  await double.close();
});

const scan = (args: readonly string[]) =>
  runCli(['scan', '--sandbox', '--endpoint-url', double.url, ...args], { env: ENV });

describe('scan s3:// against a loopback S3 double', { timeout: 30_000 }, () => {
  it('uses a stored digest only where it is provably the object’s, downloads the rest, and counts the bytes', async () => {
    const before = double.downloads.length;
    const run = await scan(['-f', 'ndjson', 's3://cases']);
    expect(run.code).toBe(1);
    const rows = parseNdjson(run.stdout);
    const byKey = Object.fromEntries(rows.map((row) => [String(row.path).replace('s3://cases/', ''), row]));
    expect(Object.keys(byKey).sort()).toEqual(Object.keys(CASES).sort());
    for (const [key, expected] of Object.entries(EXPECTED)) {
      expect({ key, ...byKey[key] }).toMatchObject({ key, ...expected });
    }
    expect(byKey['full-object-checksum.bin']).toMatchObject({ sha256: EICAR_SHA256 });
    expect(byKey['full-object-checksum.bin']?.md5).toBeUndefined();
    expect(byKey['plain-etag.bin']).toMatchObject({ md5: EICAR_MD5 });
    expect(byKey['sse-kms.bin']).toMatchObject({ sha256: EICAR_SHA256, md5: EICAR_MD5 });
    // Four objects downloaded, each once; the three with a stored digest never.
    const downloaded = double.downloads.slice(before).sort();
    expect(downloaded).toEqual(['composite-checksum.bin', 'multipart.bin', 'sse-c.bin', 'sse-kms.bin']);
    expect(run.stderr).toContain(
      `7 objects: 1 checksum-sha256, 2 etag-md5, 4 download, 0 failed; ${4 * EICAR.length} bytes downloaded`,
    );
    expect(run.stderr).not.toContain('double-SECRET-key');
  });

  it('follows the listing page after page, path-style on a custom endpoint named by host name, in us-east-1 when no region is set', async () => {
    // By host name, not IP: virtual-hosted style would ask `paged.localhost`, which the double does not serve.
    const env = {
      ...ENV,
      AWS_ENDPOINT_URL: double.url.replace('127.0.0.1', 'localhost'),
      AWS_REGION: undefined,
      AWS_DEFAULT_REGION: undefined,
      AWS_PROFILE: undefined,
      AWS_CONFIG_FILE: '/nonexistent/aws-config',
    };
    const run = await runCli(['scan', '--sandbox', '-f', 'ndjson', 's3://paged/obj-'], { env });
    expect(run.code).toBe(0);
    expect(parseNdjson(run.stdout).map((row) => row.path)).toHaveLength(7);
  });

  it('a listing refused on its second page reports the objects listed before it and exits 2, even with --fail-on block', async () => {
    for (const extra of [[], ['--fail-on', 'block']]) {
      const run = await scan(['-f', 'ndjson', ...extra, 's3://cut']);
      expect(run.code).toBe(2);
      const rows = parseNdjson(run.stdout);
      const listed = rows.filter((row) => row.error === undefined);
      expect(listed.map((row) => row.path).sort()).toEqual([
        's3://cut/obj-0.txt',
        's3://cut/obj-1.txt',
        's3://cut/obj-2.txt',
      ]);
      const failure = rows.find((row) => row.error === 'S3_LISTING_FAILED');
      expect(failure).toMatchObject({ decision: 'review', verdict: 'error', path: 's3://cut/' });
      expect(String(failure?.detail)).toContain('listing stopped after 3 objects: AccessDenied (HTTP 403)');
      expect(run.stderr).toContain('1 listing cut short');
    }
  });

  it('a body that ends short of the object’s size is a review row, never a digest', async () => {
    const run = await scan(['-f', 'ndjson', 's3://short']);
    expect(run.code).toBe(2);
    const rows = parseNdjson(run.stdout);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ decision: 'review', verdict: 'error' });
      expect(row.sha256).toBeUndefined();
      expect(row.md5).toBeUndefined();
    }
    const shorter = rows.find((row) => row.path === 's3://short/shorter-body.bin');
    expect(shorter).toMatchObject({ error: 'S3_SHORT_READ' });
    expect(String(shorter?.detail)).toContain('600 of 1000 bytes');
    const cut = rows.find((row) => row.path === 's3://short/cut-connection.bin');
    expect(['S3_READ_FAILED', 'S3_SHORT_READ']).toContain(cut?.error);
    expect(run.stderr).toContain('2 objects: 0 checksum-sha256, 0 etag-md5, 0 download, 2 failed');
  });
});
