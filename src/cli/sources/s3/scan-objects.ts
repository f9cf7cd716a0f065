import type { HashAlgorithm } from '../../../hashing/index.js';
import { counted } from '../../tally.js';
import type { ObjectEntry } from '../entry.js';
import type { S3Connection } from './connect.js';
import { type ListedObject, ListingError, listObjects } from './list-objects.js';
import { type Coverage, digestObject, type ObjectResult } from './object-digest.js';
import { type S3Location, s3Name } from './s3-url.js';

/** What an inventory knows of the objects (`scan --inventory`), asked as the listing goes. */
export interface ObjectRecall {
  /**
   * Called for every listed object: its recorded entry when the listing shows the recorded
   * identity (ETag, size, last-modified), which is then neither HEADed nor downloaded; else `undefined`.
   */
  recall(bucket: string, listed: ListedObject): ObjectEntry | undefined;
  /** A location listed to its end: a recorded object under it that was not listed is gone. */
  listed(location: S3Location): void;
}

export interface ScanObjectsOptions {
  readonly algorithms: readonly HashAlgorithm[];
  /** Objects checked (HeadObject, and the download when there is one) at once. */
  readonly concurrency: number;
  readonly signal: AbortSignal;
  readonly recall?: ObjectRecall | undefined;
}

type Listed = { readonly bucket: string; readonly object: ListedObject } | ObjectResult;

/** A new, empty coverage tally. */
export function emptyCoverage(inventory: boolean): Coverage {
  const fromInventory = inventory ? 0 : undefined;
  return {
    'checksum-sha256': 0,
    'etag-md5': 0,
    download: 0,
    failed: 0,
    bytesDownloaded: 0,
    listingsCut: 0,
    fromInventory,
  };
}

async function* listEvery(
  connection: S3Connection,
  locations: readonly S3Location[],
  coverage: Coverage,
  signal: AbortSignal,
  recall: ObjectRecall | undefined,
): AsyncGenerator<Listed, void, undefined> {
  for (const location of locations) {
    try {
      for await (const object of listObjects(connection, location, signal)) yield { bucket: location.bucket, object };
      if (!signal.aborted) recall?.listed(location);
    } catch (error) {
      if (!(error instanceof ListingError)) throw error;
      coverage.listingsCut += 1;
      yield {
        problem: { name: s3Name(location.bucket, location.prefix), code: 'S3_LISTING_FAILED', message: error.message },
      };
    }
  }
}

/**
 * Every object under the locations, with its digests or its problem, in completion order:
 * at most `concurrency` objects in flight, and the listing asked for its next page only as
 * objects are taken (memory stays at one page and the objects in flight). A listing cut
 * part-way yields an `S3_LISTING_FAILED` problem and the run goes on with the next location.
 */
export async function* scanObjects(
  connection: S3Connection,
  locations: readonly S3Location[],
  options: ScanObjectsOptions,
  coverage: Coverage,
): AsyncGenerator<ObjectResult, void, undefined> {
  const listing = listEvery(connection, locations, coverage, options.signal, options.recall);
  const running = new Set<Promise<void>>();
  const ready: ObjectResult[] = [];
  let listed = false;
  const digestOptions = { algorithms: options.algorithms, signal: options.signal, coverage };
  while (true) {
    while (!listed && running.size < options.concurrency && !options.signal.aborted) {
      const next = await listing.next();
      if (next.done === true) {
        listed = true;
        break;
      }
      const item = next.value;
      if (!('object' in item)) {
        ready.push(item);
        continue;
      }
      const known = options.recall?.recall(item.bucket, item.object);
      if (known !== undefined) {
        coverage[known.digestSource] += 1;
        coverage.fromInventory = (coverage.fromInventory ?? 0) + 1;
        ready.push({ entry: known });
        continue;
      }
      const task: Promise<void> = digestObject(connection, item.bucket, item.object, digestOptions).then((result) => {
        ready.push(result);
        running.delete(task);
      });
      running.add(task);
    }
    yield* ready.splice(0);
    if (running.size === 0 && (listed || options.signal.aborted)) break;
    if (running.size > 0) await Promise.race(running);
  }
  if (!listed) await listing.return();
}

/** The coverage line of the run summary: objects by digest source, bytes downloaded. */
export function describeCoverage(coverage: Coverage): string {
  const total = coverage['checksum-sha256'] + coverage['etag-md5'] + coverage.download + coverage.failed;
  const cut = coverage.listingsCut > 0 ? `; ${counted(coverage.listingsCut, 'listing', 'listings')} cut short` : '';
  // Counted under their recorded source too: the digest's origin is still that one.
  const recalled =
    coverage.fromInventory === undefined ? '' : `; ${coverage.fromInventory} from the inventory (not looked at)`;
  return (
    `${counted(total, 'object', 'objects')}: ${coverage['checksum-sha256']} checksum-sha256, ` +
    `${coverage['etag-md5']} etag-md5, ${coverage.download} download, ${coverage.failed} failed${recalled}; ` +
    `${counted(coverage.bytesDownloaded, 'byte', 'bytes')} downloaded${cut}`
  );
}
