/**
 * A loopback S3 double (node:http, path-style) for what s3rver does not model: `-N` ETags, SSE-KMS
 * and SSE-C headers, `x-amz-checksum-type` FULL_OBJECT vs COMPOSITE, a listing that fails on a
 * later page, a body cut short of its Content-Length. It answers ListObjectsV2 a few keys a page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Loopback, startLoopback } from '../../../helpers/loopback.js';

/** One object of the double: its bytes and the headers HeadObject and GetObject give. */
export interface DoubleObject {
  readonly body: Buffer;
  readonly etag: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** GetObject sends this many bytes of the body, then closes the connection. */
  readonly cutAfter?: number;
  /** GetObject answers 403: the test proves the object was never downloaded. */
  readonly noDownload?: boolean;
  /** What GetObject serves whole, with its own length, instead of `body` (a store that changed it, or lies). */
  readonly served?: Buffer;
}

export interface DoubleBucket {
  readonly objects: Readonly<Record<string, DoubleObject>>;
  /** The listing page (1-based) answered 403 AccessDenied. */
  readonly failPage?: number | undefined;
}

export interface S3Double extends Loopback {
  /** `GET /bucket/key` requests so far (downloads), by key. */
  readonly downloads: string[];
  /** `HEAD /bucket/key` requests so far, by key. */
  readonly heads: string[];
}

const PAGE = 3;
const LAST_MODIFIED = new Date('2026-01-02T03:04:05.000Z');

const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function error(response: ServerResponse, status: number, code: string): void {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
}

function list(bucketName: string, bucket: DoubleBucket, url: URL, response: ServerResponse): void {
  const prefix = url.searchParams.get('prefix') ?? '';
  const start = Number(url.searchParams.get('continuation-token') ?? '0');
  if (bucket.failPage !== undefined && start / PAGE + 1 === bucket.failPage) {
    error(response, 403, 'AccessDenied');
    return;
  }
  const keys = Object.keys(bucket.objects)
    .filter((key) => key.startsWith(prefix))
    .sort();
  const page = keys.slice(start, start + PAGE);
  const more = start + PAGE < keys.length;
  const contents = page
    .map((key) => {
      const object = bucket.objects[key] as DoubleObject;
      return `<Contents><Key>${escapeXml(key)}</Key><LastModified>${LAST_MODIFIED.toISOString()}</LastModified><ETag>&quot;${object.etag}&quot;</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
    })
    .join('');
  response.writeHead(200, { 'content-type': 'application/xml' });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucketName}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>${more}</IsTruncated>${more ? `<NextContinuationToken>${start + PAGE}</NextContinuationToken>` : ''}${contents}</ListBucketResult>`,
  );
}

/** Starts the double with the given buckets. */
export async function startS3Double(buckets: Readonly<Record<string, DoubleBucket>>): Promise<S3Double> {
  const downloads: string[] = [];
  const heads: string[] = [];
  const loopback = await startLoopback((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://double');
    const [, bucketName = '', ...rest] = url.pathname.split('/');
    const bucket = buckets[bucketName];
    if (bucket === undefined) return error(response, 404, 'NoSuchBucket');
    if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) return list(bucketName, bucket, url, response);
    const key = decodeURIComponent(rest.join('/'));
    const object = bucket.objects[key];
    if (object === undefined) return error(response, 404, 'NoSuchKey');
    // As S3 does, checksums only to a request that asks for them (`x-amz-checksum-mode: ENABLED`).
    const asked = request.headers['x-amz-checksum-mode'] === 'ENABLED';
    const headers = {
      etag: `"${object.etag}"`,
      'content-length': String(object.body.length),
      'last-modified': LAST_MODIFIED.toUTCString(),
      'content-type': 'application/octet-stream',
      ...Object.fromEntries(
        Object.entries(object.headers ?? {}).filter(([name]) => asked || !name.startsWith('x-amz-checksum-')),
      ),
    };
    if (request.method === 'HEAD') {
      heads.push(key);
      response.writeHead(200, headers);
      response.end();
      return;
    }
    downloads.push(key);
    if (object.noDownload === true) return error(response, 403, 'AccessDenied');
    if (object.served !== undefined) {
      response.writeHead(200, { ...headers, 'content-length': String(object.served.length) });
      response.end(object.served);
      return;
    }
    response.writeHead(200, headers);
    if (object.cutAfter === undefined) {
      response.end(object.body);
      return;
    }
    response.write(object.body.subarray(0, object.cutAfter), () => request.socket.destroy());
  });
  return { ...loopback, downloads, heads };
}
