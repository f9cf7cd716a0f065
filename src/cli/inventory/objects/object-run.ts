/**
 * One `scan --inventory` run over the inventory's objects: which listed
 * objects are the recorded ones (neither HEADed nor downloaded again), each
 * object's transition, and the objects gone from a listing that reached its
 * end. Answers are shared with the files' run: a hash answered for a file
 * stands for an object, and the other way round.
 */
import type { HashAlgorithm } from '../../../index.js';
import type { OutcomeView } from '../../scan-row.js';
import { lookupAlgorithm, type ObjectEntry, type ObjectIdentity } from '../../sources/entry.js';
import type { ListedObject } from '../../sources/s3/list-objects.js';
import { type S3Location, s3Name } from '../../sources/s3/s3-url.js';
import type { ObjectRecall } from '../../sources/s3/scan-objects.js';
import type { Settled } from '../inventory-run.js';
import { chooseSqlite } from '../sqlite-driver.js';
import type { StoredAnswer } from '../store.js';
import { storedAnswer } from '../stored-answer.js';
import { type TransitionCells, transition } from '../transition.js';
import { ObjectInventory, type ObjectRecord } from './object-store.js';

/** Where answers are pooled by hash (the files' run). */
interface AnswerPool {
  remember(hash: string, answer: StoredAnswer): void;
}

export interface ObjectRunOptions {
  /** The `s3://` arguments: a recorded object under one of them, not listed by a complete listing, is `gone`. */
  readonly locations: readonly S3Location[];
  /** The first `-a` algorithm (the one looked up where the object has it). */
  readonly primary: HashAlgorithm;
  readonly answers: AnswerPool;
}

export class ObjectInventoryRun implements ObjectRecall {
  readonly #store: ObjectInventory;
  readonly #records: Map<string, ObjectRecord>;
  readonly #options: ObjectRunOptions;
  /** Recorded objects under the locations not listed yet, by `s3://bucket/key`. */
  readonly #unseen = new Set<string>();
  /** Locations listed to their end. */
  readonly #complete: S3Location[] = [];

  private constructor(store: ObjectInventory, records: Map<string, ObjectRecord>, options: ObjectRunOptions) {
    this.#store = store;
    this.#records = records;
    this.#options = options;
    for (const [name, record] of records) {
      if (options.locations.some((location) => under(record.identity, location))) this.#unseen.add(name);
      const hash = record.digests[record.algorithm];
      if (hash !== undefined && record.answer !== undefined) options.answers.remember(hash, record.answer);
    }
  }

  /** Opens the objects of the inventory at `path` (opened and checked by the files' run first), and reads them. */
  static async open(path: string, options: ObjectRunOptions): Promise<ObjectInventoryRun> {
    const store = ObjectInventory.open(path, (await chooseSqlite()).open);
    try {
      return new ObjectInventoryRun(store, store.load(path), options);
    } catch (error) {
      store.close();
      throw error;
    }
  }

  recall(bucket: string, listed: ListedObject): ObjectEntry | undefined {
    const name = s3Name(bucket, listed.key);
    this.#unseen.delete(name);
    const record = this.#records.get(name);
    if (record === undefined || !listedAsRecorded(record.identity, listed)) return undefined;
    const { identity, digests, digestSource } = record;
    return { kind: 'object', name, size: identity.size, digests, digestSource, identity };
  }

  listed(location: S3Location): void {
    this.#complete.push(location);
  }

  /** An object with its outcome (asked now, or a fresh answer from `at`): its transition, and its record. */
  settle(entry: ObjectEntry, outcome: OutcomeView, decision: 'allow' | 'block' | 'review', at: number): Settled {
    const algorithm = lookupAlgorithm(entry.digests, this.#options.primary) as HashAlgorithm;
    const hash = entry.digests[algorithm];
    const answer = storedAnswer(outcome, at);
    if (hash !== undefined && answer !== undefined) this.#options.answers.remember(hash, answer);
    const previous = this.#records.get(entry.name);
    const [before, now] = contentKeys(previous, entry);
    const cells = transition(previous && { decision: previous.decision, hash: before }, { decision, hash: now });
    const unchanged =
      previous !== undefined &&
      sameIdentity(previous.identity, entry.identity) &&
      previous.digestSource === entry.digestSource &&
      cells.change === 'unchanged' &&
      previous.answer?.checkedAtMs === answer?.checkedAtMs;
    const record: ObjectRecord = {
      identity: entry.identity,
      digests: entry.digests,
      digestSource: entry.digestSource,
      algorithm,
      decision,
      answer,
    };
    // An object met as recorded, with the answer it had: nothing to write.
    return { cells, record: unchanged ? () => {} : () => this.#store.put(record) };
  }

  /** The transition of an object (or a listing) without a digest: nothing recorded, its last state stands. */
  unreadable(name: string, decision: string): TransitionCells {
    const previous = this.#records.get(name);
    return transition(previous && { decision: previous.decision, hash: undefined }, { decision, hash: undefined });
  }

  /** Recorded objects under a location listed to its end that it did not list; call once the objects are done. */
  *gone(): Generator<{ readonly record: ObjectRecord; readonly forget: () => void }, void, undefined> {
    for (const name of this.#unseen) {
      const record = this.#records.get(name) as ObjectRecord;
      if (!this.#complete.some((location) => under(record.identity, location))) continue;
      yield { record, forget: () => this.#store.remove(record.identity) };
    }
  }

  /** Writes what is pending and closes the connection. */
  close(): void {
    this.#store.close();
  }
}

function under(identity: ObjectIdentity, location: S3Location): boolean {
  return identity.bucket === location.bucket && identity.key.startsWith(location.prefix);
}

/** Whole seconds: a listing may give milliseconds where HeadObject's `Last-Modified` has none. */
const seconds = (iso: string | Date): number => Math.floor(new Date(iso).getTime() / 1000);

/** The listing shows the recorded version: same ETag, size and last-modified (a listing without one never matches). */
function listedAsRecorded(recorded: ObjectIdentity, listed: ListedObject): boolean {
  return (
    recorded.etag === listed.etag &&
    recorded.size === listed.size &&
    recorded.lastModified !== undefined &&
    listed.lastModified !== undefined &&
    seconds(recorded.lastModified) === seconds(listed.lastModified)
  );
}

function sameIdentity(a: ObjectIdentity, b: ObjectIdentity): boolean {
  return a.etag === b.etag && a.size === b.size && a.versionId === b.versionId && a.lastModified === b.lastModified;
}

/**
 * What tells the recorded content from the present one: a digest both have (an object once had by
 * its ETag as MD5 and now by its SHA-256 checksum has no common one), else its ETag and size.
 */
function contentKeys(previous: ObjectRecord | undefined, entry: ObjectEntry): [string | undefined, string | undefined] {
  if (previous === undefined) return [undefined, undefined];
  for (const algorithm of ['sha256', 'sha1', 'md5'] as const) {
    const before = previous.digests[algorithm];
    const now = entry.digests[algorithm];
    if (before !== undefined && now !== undefined) return [before, now];
  }
  const { identity } = previous;
  return [`${identity.etag}:${identity.size}`, `${entry.identity.etag}:${entry.identity.size}`];
}
