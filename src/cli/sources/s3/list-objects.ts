import * as z from 'zod';
import type { S3Connection } from './connect.js';
import type { S3Location } from './s3-url.js';
import { bareEtag } from './stored-digest.js';

/** One object as a listing page gives it. */
export interface ListedObject {
  readonly key: string;
  readonly size: number;
  readonly etag: string;
  /** As the listing gives it; `undefined` when it gave none. */
  readonly lastModified: Date | undefined;
}

/** A listing that stopped before its end: the objects listed before it are still scanned. */
export class ListingError extends Error {
  override readonly name = 'ListingError';
}

// What the SDK parsed off the wire, checked before use: a key, a whole size, an ETag (and when, if said).
const LISTED = z.object({
  Key: z.string().min(1),
  Size: z.number().int().nonnegative(),
  ETag: z.string().min(1),
  LastModified: z.date().optional(),
});
const PAGE = z.object({
  Contents: z.array(z.unknown()).optional(),
  IsTruncated: z.boolean().optional(),
  NextContinuationToken: z.string().min(1).optional(),
});

/** An error's name and first line, without the request or anything signed. */
export function describeS3Error(error: unknown): string {
  const { name, message, $metadata } = error as {
    name?: unknown;
    message?: unknown;
    $metadata?: { httpStatusCode?: unknown };
  };
  const status = typeof $metadata?.httpStatusCode === 'number' ? ` (HTTP ${$metadata.httpStatusCode})` : '';
  const text = typeof message === 'string' ? (message.split('\n')[0] ?? '').slice(0, 200) : '';
  return `${typeof name === 'string' ? name : 'Error'}${status}${text === '' ? '' : `: ${text}`}`;
}

/**
 * Every object under a prefix, a page (ListObjectsV2) at a time, fetched only as the consumer
 * asks for more: memory stays at one page. Throws {@link ListingError} when a page fails or says
 * there is more without saying where; what was yielded before stays valid.
 */
export async function* listObjects(
  connection: S3Connection,
  location: S3Location,
  signal: AbortSignal,
): AsyncGenerator<ListedObject, void, undefined> {
  let token: string | undefined;
  let listed = 0;
  do {
    let page: z.infer<typeof PAGE>;
    try {
      const output = await connection.client.send(
        new connection.sdk.ListObjectsV2Command({
          Bucket: location.bucket,
          ...(location.prefix === '' ? {} : { Prefix: location.prefix }),
          ...(token === undefined ? {} : { ContinuationToken: token }),
        }),
        { abortSignal: signal },
      );
      page = PAGE.parse(output);
    } catch (error) {
      throw new ListingError(`listing stopped after ${listed} objects: ${describeS3Error(error)}`);
    }
    for (const item of page.Contents ?? []) {
      const parsed = LISTED.safeParse(item);
      if (!parsed.success) {
        throw new ListingError(`listing stopped after ${listed} objects: an entry without a key, size or ETag`);
      }
      listed += 1;
      const { Key: key, Size: size, ETag: etag, LastModified: lastModified } = parsed.data;
      yield { key, size, etag: bareEtag(etag), lastModified };
    }
    if (page.IsTruncated === true && page.NextContinuationToken === undefined) {
      throw new ListingError(`listing stopped after ${listed} objects: the store said there is more, but not where`);
    }
    token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
}
