import { createHash } from 'node:crypto';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eicarTestFile } from '../../../../src/sandbox/index.js';
import { type S3Server, s3rverClient, startS3rver } from '../../../helpers/s3rver.js';
import { CLI_PATH } from '../../build-cli.js';
import { csvRecords, parseNdjson, runCli } from '../../run-cli.js';

const EICAR = eicarTestFile();
const OBJECTS: Readonly<Record<string, string | Uint8Array>> = {
  'uploads/2026/eicar.com': EICAR,
  'uploads/2026/readme.txt': 'nothing to see\n',
  'uploads/2026/odd name, "quoted".txt': 'odd\n',
  'other/elsewhere.txt': 'not under the prefix\n',
};

let server: S3Server;

beforeAll(async () => {
  server = await startS3rver(['store']);
  // The SDK's notice that its 2027 releases will need Node 22 would be a process warning of this test.
  vi.stubEnv('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED', 'true');
  const client = s3rverClient(server);
  for (const [key, body] of Object.entries(OBJECTS)) {
    await client.send(new PutObjectCommand({ Bucket: 'store', Key: key, Body: body }));
  }
  client.destroy();
}, 30_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await server?.close();
});

describe('scan s3:// against s3rver (a real S3-protocol server)', { timeout: 30_000 }, () => {
  it('blocks the EICAR object from its ETag (MD5) without downloading, in every format', async () => {
    const ndjson = await runCli(
      ['scan', '--sandbox', '-f', 'ndjson', '--endpoint-url', server.endpoint, 's3://store/uploads/'],
      {
        env: server.env,
      },
    );
    expect(ndjson.code).toBe(1);
    const rows = parseNdjson(ndjson.stdout);
    expect(rows.map((row) => row.path).sort()).toEqual([
      's3://store/uploads/2026/eicar.com',
      's3://store/uploads/2026/odd name, "quoted".txt',
      's3://store/uploads/2026/readme.txt',
    ]);
    const eicar = rows.find((row) => row.path === 's3://store/uploads/2026/eicar.com');
    expect(eicar).toMatchObject({
      decision: 'block',
      verdict: 'malicious',
      source: 'eicar',
      digestSource: 'etag-md5',
      md5: createHash('md5').update(EICAR).digest('hex'),
      size: EICAR.length,
    });
    expect(rows.every((row) => row.digestSource === 'etag-md5')).toBe(true);
    expect(ndjson.stderr).toContain(
      '3 objects: 0 checksum-sha256, 3 etag-md5, 0 download, 0 failed; 0 bytes downloaded',
    );
    // One field order: digestSource after size, in NDJSON as in the CSV header.
    expect(Object.keys(eicar ?? {})).toEqual([
      'decision',
      'verdict',
      'md5',
      'size',
      'digestSource',
      'detail',
      'path',
      'source',
      'checkedAt',
      'firstSeen',
      'lastSeen',
    ]);

    const csv = await runCli(['scan', '--sandbox', '-f', 'csv', 's3://store/uploads/2026/'], {
      env: { ...server.env, AWS_ENDPOINT_URL_S3: server.endpoint },
    });
    expect(csv.code).toBe(1);
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'decision,verdict,sha256,md5,size,digestSource,detail,path,pathBase64,source,error,checkedAt,firstSeen,lastSeen',
    );
    expect(csvRecords(csv.stdout).map((row) => row.digestSource)).toEqual(['etag-md5', 'etag-md5', 'etag-md5']);

    const table = await runCli(['scan', '--sandbox', 's3://store/uploads/2026/eicar'], {
      env: { ...server.env, AWS_ENDPOINT_URL: server.endpoint },
    });
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/DIGESTSOURCE/);
    expect(table.stdout).toMatch(/block +malicious.*etag-md5 +eicar +s3:\/\/store\/uploads\/2026\/eicar\.com/);
  });

  it('local paths and objects in one run: one report, one tally, digestSource on the objects only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cli-mixed-'));
    try {
      await writeFile(join(dir, 'local.txt'), 'a local file\n');
      const run = await runCli(
        ['scan', '--sandbox', '-f', 'ndjson', '--endpoint-url', server.endpoint, dir, 's3://store/uploads/2026/eicar'],
        { env: server.env },
      );
      expect(run.code).toBe(1);
      const rows = parseNdjson(run.stdout);
      expect(rows.map((row) => [row.path, row.decision, row.digestSource]).sort()).toEqual([
        [join(dir, 'local.txt'), 'allow', undefined],
        ['s3://store/uploads/2026/eicar.com', 'block', 'etag-md5'],
      ]);
      expect(run.stderr).toContain('2 files: 1 block, 0 review, 1 allow');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a bucket that does not exist is a review row and exit 2, never a clean run', async () => {
    const run = await runCli(
      ['scan', '--sandbox', '-f', 'ndjson', '--endpoint-url', server.endpoint, 's3://no-such-bucket'],
      {
        env: server.env,
      },
    );
    expect(run.code).toBe(2);
    expect(parseNdjson(run.stdout)).toEqual([
      expect.objectContaining({ decision: 'review', error: 'S3_LISTING_FAILED', path: 's3://no-such-bucket/' }),
    ]);
  });
});

describe('scan s3:// usage errors', { timeout: 30_000 }, () => {
  it('without @aws-sdk/client-s3 installed, exits 64 naming the package to install', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cli-no-sdk-'));
    try {
      await cp(dirname(CLI_PATH), dir, { recursive: true });
      const run = await runCli(['scan', '--sandbox', 's3://store/'], { cliPath: join(dir, 'cli.mjs') });
      expect(run.code).toBe(64);
      expect(run.stderr).toContain('npm install @aws-sdk/client-s3');
      expect(run.stdout).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [['s3://'], 'does not name a bucket'],
    [['s3:///prefix'], 'does not name a bucket'],
    [['--endpoint-url', 'ftp://127.0.0.1', 's3://store'], '--endpoint-url must be an http(s) URL'],
    [['--endpoint-url', 'not a url', 's3://store'], '--endpoint-url must be an http(s) URL'],
  ])('%j is a usage error', async (args, message) => {
    const run = await runCli(['scan', '--sandbox', ...args]);
    expect(run.code).toBe(64);
    expect(run.stderr).toContain(message);
  });
});
