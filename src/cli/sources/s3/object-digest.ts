import * as z from 'zod';
import { type HashAlgorithm, hashStream } from '../../../hashing/index.js';
import type { ObjectEntry, ObjectIdentity } from '../entry.js';
import type { S3Connection } from './connect.js';
import { describeS3Error, type ListedObject } from './list-objects.js';
import { s3Name } from './s3-url.js';
import { bareEtag, storedDigests } from './stored-digest.js';

/** An object that could not be given a digest: a `review` row. */
interface ObjectProblem {
  readonly name: string;
  readonly code: string;
  readonly message: string;
}

export type ObjectResult = { readonly entry: ObjectEntry } | { readonly problem: ObjectProblem };

/** Objects by where their digest came from, and the bytes downloaded for them. */
export interface Coverage {
  'checksum-sha256': number;
  'etag-md5': number;
  download: number;
  failed: number;
  bytesDownloaded: number;
  /** Listings that stopped before their end. */
  listingsCut: number;
  /**
   * Objects counted above under their recorded source whose identity was the inventory's: their
   * recorded digests stand, neither HEADed nor downloaded; `undefined` without an inventory.
   */
  fromInventory: number | undefined;
}

export interface ObjectDigestOptions {
  /** Computed from the bytes of a downloaded object, in one pass. */
  readonly algorithms: readonly HashAlgorithm[];
  readonly signal: AbortSignal;
  readonly coverage: Coverage;
}

const HEAD = z.object({
  ETag: z.string().min(1),
  ContentLength: z.number().int().nonnegative(),
  LastModified: z.date().optional(),
  VersionId: z.string().min(1).optional(),
  ChecksumSHA256: z.string().optional(),
  ChecksumType: z.string().optional(),
  ServerSideEncryption: z.string().optional(),
  SSECustomerAlgorithm: z.string().optional(),
});

const GOT = z.object({
  ContentLength: z.number().int().nonnegative().optional(),
  Body: z.custom<AsyncIterable<unknown>>(
    (body) => body !== null && typeof body === 'object' && Symbol.asyncIterator in body,
  ),
});

class ObjectFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One object's digests: HeadObject (with its checksum), then the stored digest where it is
 * provably the object's (see `stored-digest.ts`), else the bytes streamed and hashed. The download
 * asks for the version HeadObject described (`IfMatch` its ETag), so the digest and the identity
 * are of the same bytes; a body that ends short of its length is a problem, never a digest.
 */
export async function digestObject(
  connection: S3Connection,
  bucket: string,
  listed: ListedObject,
  options: ObjectDigestOptions,
): Promise<ObjectResult> {
  const name = s3Name(bucket, listed.key);
  const { coverage } = options;
  try {
    const head = await send('S3_HEAD_FAILED', () =>
      connection.client.send(
        new connection.sdk.HeadObjectCommand({ Bucket: bucket, Key: listed.key, ChecksumMode: 'ENABLED' }),
        { abortSignal: options.signal },
      ),
    ).then((output) => parse(HEAD, output, 'S3_HEAD_FAILED'));
    const identity: ObjectIdentity = {
      bucket,
      key: listed.key,
      versionId: head.VersionId,
      etag: bareEtag(head.ETag),
      size: head.ContentLength,
      lastModified: head.LastModified?.toISOString(),
    };
    const stored = storedDigests({
      etag: identity.etag,
      checksumSha256: head.ChecksumSHA256,
      checksumType: head.ChecksumType,
      serverSideEncryption: head.ServerSideEncryption,
      sseCustomerAlgorithm: head.SSECustomerAlgorithm,
    });
    if (stored !== undefined) {
      coverage[stored.source] += 1;
      const entry: ObjectEntry = {
        kind: 'object',
        name,
        size: identity.size,
        digests: stored.digests,
        digestSource: stored.source,
        identity,
      };
      return { entry };
    }
    const digests = await download(connection, identity, options);
    coverage.download += 1;
    return { entry: { kind: 'object', name, size: identity.size, digests, digestSource: 'download', identity } };
  } catch (error) {
    coverage.failed += 1;
    if (error instanceof ObjectFailure) return { problem: { name, code: error.code, message: error.message } };
    return { problem: { name, code: 'S3_READ_FAILED', message: describeS3Error(error) } };
  }
}

async function download(
  connection: S3Connection,
  identity: ObjectIdentity,
  options: ObjectDigestOptions,
): Promise<Partial<Record<HashAlgorithm, string>>> {
  const got = await send('S3_GET_FAILED', () =>
    connection.client.send(
      new connection.sdk.GetObjectCommand({
        Bucket: identity.bucket,
        Key: identity.key,
        IfMatch: `"${identity.etag}"`,
        ...(identity.versionId === undefined ? {} : { VersionId: identity.versionId }),
      }),
      { abortSignal: options.signal },
    ),
  ).then((output) => parse(GOT, output, 'S3_GET_FAILED'));
  const expected = got.ContentLength ?? identity.size;
  let received = 0;
  async function* counted(): AsyncGenerator<unknown, void, undefined> {
    for await (const chunk of got.Body) {
      if (chunk instanceof Uint8Array) {
        received += chunk.byteLength;
        options.coverage.bytesDownloaded += chunk.byteLength;
      }
      yield chunk;
    }
  }
  let digests: Partial<Record<HashAlgorithm, string>>;
  try {
    digests = await hashStream(counted(), options.algorithms);
  } catch (error) {
    throw new ObjectFailure(
      'S3_READ_FAILED',
      `the download stopped after ${received} of ${expected} bytes: ${describeS3Error(error)}`,
    );
  }
  if (received !== expected || expected !== identity.size) {
    throw new ObjectFailure(
      'S3_SHORT_READ',
      `the download ended after ${received} of ${identity.size} bytes: no digest of part of an object`,
    );
  }
  return digests;
}

async function send<T>(code: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw new ObjectFailure(code, describeS3Error(error));
  }
}

function parse<S extends z.ZodType>(schema: S, output: unknown, code: string): z.infer<S> {
  const parsed = schema.safeParse(output);
  if (!parsed.success) throw new ObjectFailure(code, 'the store answered without the fields an object has');
  return parsed.data;
}
