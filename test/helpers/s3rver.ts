import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';

/** A real S3-protocol server (s3rver) in a child process, on a free loopback port, storing in a temp dir. */
export interface S3Server {
  /** `http://127.0.0.1:PORT`. */
  readonly endpoint: string;
  /** The credentials s3rver accepts, as the AWS SDK's standard chain reads them. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** s3rver's fixed access key and secret. */
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

/**
 * Starts s3rver with the given buckets. Its process runs with `--openssl-legacy-provider`: without
 * it, s3rver 3.7.1 on Node 20+ answers ListObjectsV2 with a 500 (its continuation tokens use a
 * cipher OpenSSL 3 moved to the legacy provider).
 */
export async function startS3rver(buckets: readonly string[]): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const bin = join(dirname(createRequire(import.meta.url).resolve('s3rver/package.json')), 'bin', 's3rver.js');
  const args = ['--openssl-legacy-provider', bin, '-d', directory, '-a', '127.0.0.1', '-p', '0', '--no-vhost-buckets'];
  for (const bucket of buckets) args.push('--configure-bucket', bucket);
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: string): void => {
      seen += chunk;
      const match = /listening on [^\s:]+:(\d+)/.exec(seen);
      if (match !== null) resolve(Number(match[1]));
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening: ${stderr}`)));
  });
  // Its request log keeps coming on stdout: read and dropped, so a full pipe never stalls it.
  child.stdout?.resume();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    env: { ...CREDENTIALS, AWS_REGION: 'us-east-1', AWS_EC2_METADATA_DISABLED: 'true' },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** A client of the server for a test's or bench's own uploads. */
export function s3rverClient(server: S3Server): S3Client {
  return new S3Client({
    endpoint: server.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: CREDENTIALS.AWS_SECRET_ACCESS_KEY },
    // s3rver predates the SDK's default upload checksums (aws-chunked trailers).
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
}
