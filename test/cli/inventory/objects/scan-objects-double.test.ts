/**
 * `scan --inventory FILE s3://…` against the loopback S3 double, for what
 * s3rver does not show: how many HeadObject requests and downloads a run
 * makes, objects only a download gives a digest to, and a listing refused
 * part-way.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseSqlite } from '../../../../src/cli/inventory/sqlite-driver.js';
import { parseNdjson, runCli } from '../../run-cli.js';
import { type DoubleObject, type S3Double, startS3Double } from '../../sources/s3/s3-double.js';

const md5 = (bytes: Buffer | string): string => createHash('md5').update(bytes).digest('hex');
const ENV = {
  AWS_ACCESS_KEY_ID: 'double-access-key',
  AWS_SECRET_ACCESS_KEY: 'double-SECRET-key',
  AWS_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
};

const clean = (text: string): DoubleObject => ({ body: Buffer.from(text), etag: md5(text) });
// Listed a page of three: [kms.bin, multi.bin, obj-0.txt], [obj-1.txt, obj-2.txt, obj-3.txt], [obj-4.txt].
const objects: Record<string, DoubleObject> = {
  'kms.bin': {
    body: Buffer.from('under a KMS key'),
    etag: md5('kms'),
    headers: { 'x-amz-server-side-encryption': 'aws:kms', 'x-amz-version-id': 'v-kms-1' },
  },
  'multi.bin': { body: Buffer.from('uploaded in parts'), etag: `${md5('parts')}-2` },
  ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`obj-${i}.txt`, clean(`object ${i}`)])),
};
const bucket: { objects: Record<string, DoubleObject>; failPage?: number | undefined } = { objects };

let double: S3Double;
let dir: string;
let db: string;

beforeAll(async () => {
  double = await startS3Double({ inv: bucket });
  dir = await mkdtemp(join(tmpdir(), 'cli-inventory-double-'));
  db = join(dir, 'store.db');
});

afterAll(async () => {
  await double?.close();
  await rm(dir, { recursive: true, force: true });
});

const scan = (args: readonly string[] = []) =>
  runCli(['scan', '--sandbox', '--inventory', db, '-f', 'ndjson', '--endpoint-url', double.url, ...args, 's3://inv'], {
    env: ENV,
  });

/** What the double was asked for during `run`. */
async function counting<T>(run: () => Promise<T>): Promise<{ result: T; heads: string[]; downloads: string[] }> {
  const heads = double.heads.length;
  const downloads = double.downloads.length;
  const result = await run();
  return { result, heads: double.heads.slice(heads).sort(), downloads: double.downloads.slice(downloads).sort() };
}

describe('scan --inventory s3:// against the S3 double', { timeout: 30_000 }, () => {
  it('HEADs and downloads only what changed, and a listing refused part-way marks nothing gone', async () => {
    const first = await counting(() => scan());
    expect(first.result.code).toBe(0);
    expect(first.heads).toEqual(Object.keys(objects).sort());
    expect(first.downloads).toEqual(['kms.bin', 'multi.bin']);
    const rows = parseNdjson(first.result.stdout);
    expect(rows.map((row) => row.change)).toEqual(Array(7).fill('new'));
    expect(rows.find((row) => row.path === 's3://inv/multi.bin')).toMatchObject({ digestSource: 'download' });
    // The version HeadObject named is recorded with the object.
    const { open } = await chooseSqlite();
    const database = open(db);
    expect(database.prepare("SELECT version_id FROM objects WHERE key = 'kms.bin'").all()).toEqual([
      { version_id: 'v-kms-1' },
    ]);
    database.close();

    // Nothing changed: no HeadObject, no download; downloaded objects keep digestSource download.
    const second = await counting(() => scan());
    expect(second.result.code).toBe(0);
    expect(second.heads).toEqual([]);
    expect(second.downloads).toEqual([]);
    const again = parseNdjson(second.result.stdout);
    expect(again.map((row) => row.change)).toEqual(Array(7).fill('unchanged'));
    expect(again.find((row) => row.path === 's3://inv/multi.bin')).toMatchObject({ digestSource: 'download' });
    expect(second.result.stderr).toContain(
      '7 objects: 0 checksum-sha256, 5 etag-md5, 2 download, 0 failed; 7 from the inventory (not looked at); 0 bytes downloaded',
    );

    // Two objects deleted (one on the first page, one on the last) and the second page refused.
    delete objects['obj-0.txt'];
    delete objects['obj-4.txt'];
    objects['multi.bin'] = { body: Buffer.from('uploaded in parts, again'), etag: `${md5('parts again')}-3` };
    bucket.failPage = 2;
    const cut = await counting(() => scan());
    expect(cut.result.code).toBe(2);
    const cutRows = parseNdjson(cut.result.stdout);
    expect(cutRows.filter((row) => row.change === 'gone')).toEqual([]);
    expect(cutRows.find((row) => row.error === 'S3_LISTING_FAILED')).toMatchObject({ path: 's3://inv/' });
    expect(cutRows.find((row) => row.path === 's3://inv/multi.bin')).toMatchObject({ change: 'modified' });
    expect(cut.heads).toEqual(['multi.bin']);
    expect(cut.result.stderr).toContain('0 gone');
    expect(cut.result.stderr).toContain('1 listing cut short');

    // The listing whole again: now, and only now, the two are gone.
    bucket.failPage = undefined;
    const whole = await counting(() => scan(['--changes-only']));
    expect(whole.result.code).toBe(0);
    expect(whole.heads).toEqual([]);
    expect(
      parseNdjson(whole.result.stdout)
        .map((row) => [row.path, row.change, row.previousDecision])
        .sort(),
    ).toEqual([
      ['s3://inv/obj-0.txt', 'gone', 'allow'],
      ['s3://inv/obj-4.txt', 'gone', 'allow'],
    ]);
  });
});
