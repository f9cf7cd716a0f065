// The S3 bench's reference: what an operator's glue does by hand. ListObjectsV2 page by page,
// GetObject and `hashStream` every object (16 at a time), then the package's `scanMany` on the
// digests. Plain JavaScript so that it runs with `node` alone, like the CLI. Prints the bytes
// it downloaded on stderr.
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { HashScanClient, hashStream } from '../../dist/index.js';

const [endpoint, bucket] = process.argv.slice(2);
const s3 = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1' });
const keys = [];
let token;
do {
  const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
  for (const object of page.Contents ?? []) keys.push(object.Key);
  token = page.IsTruncated ? page.NextContinuationToken : undefined;
} while (token !== undefined);

let bytes = 0;
const digests = [];
let next = 0;
async function worker() {
  while (next < keys.length) {
    const key = keys[next++];
    const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    async function* counted() {
      for await (const chunk of Body) {
        bytes += chunk.byteLength;
        yield chunk;
      }
    }
    digests.push(await hashStream(counted()));
  }
}
await Promise.all(Array.from({ length: 16 }, worker));
const client = new HashScanClient();
const outcomes = await client.scanMany(digests, { concurrency: 16 });
process.stdout.write(`${outcomes.map((outcome) => JSON.stringify({ verdict: outcome.verdict })).join('\n')}\n`);
process.stderr.write(`downloaded ${keys.length} objects, ${bytes} bytes\n`);
s3.destroy();
