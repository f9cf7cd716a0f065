/**
 * One `scan --inventory` run over the inventory: which walked files need
 * reading (their identity changed, or the inventory lacks a digest asked
 * for), which hashes have an answer younger than `--max-age`, each file's
 * transition, and the files gone from under the scanned roots.
 */
import { statSync } from 'node:fs';
import type { HashAlgorithm, HashedFile } from '../../index.js';
import type { OutcomeView } from '../scan-row.js';
import { chooseSqlite } from './sqlite-driver.js';
import { type FileIdentity, Inventory, type InventoryEntry, type StoredAnswer } from './store.js';
import { storedAnswer } from './stored-answer.js';
import { type TransitionCells, transition } from './transition.js';

/** What to do with a walked file. */
export type Plan =
  | { readonly kind: 'hash' }
  /** Its identity is the recorded one: its recorded digests stand, it is not read. */
  | { readonly kind: 'known'; readonly file: HashedFile<HashAlgorithm, Buffer> };

/** A settled file: its transition, and the write that records it (once its row is printed). */
export interface Settled {
  readonly cells: TransitionCells;
  readonly record: () => void;
}

export interface InventoryRunOptions {
  /** The scanned roots as given: a recorded file under one of them and not met is `gone`. */
  readonly roots: readonly string[];
  readonly algorithms: readonly HashAlgorithm[];
  /** An answer older than this is asked again. */
  readonly maxAgeMs: number;
}

export class InventoryRun {
  readonly #inventory: Inventory;
  readonly #entries: Map<string, InventoryEntry>;
  /** Recorded files under the roots not met yet. */
  readonly #unseen = new Set<string>();
  /** Identities taken when files were met, until they settle. */
  readonly #identities = new Map<string, FileIdentity>();
  /** Answers young enough to stand, by hash. */
  readonly #fresh = new Map<string, StoredAnswer>();
  readonly #options: InventoryRunOptions;
  readonly #since: number;

  private constructor(inventory: Inventory, entries: Map<string, InventoryEntry>, options: InventoryRunOptions) {
    this.#inventory = inventory;
    this.#entries = entries;
    this.#options = options;
    this.#since = Date.now() - options.maxAgeMs;
    const roots = options.roots.map((root) => rootPrefix(Buffer.from(root).toString('latin1')));
    for (const [key, entry] of entries) {
      if (roots.some((root) => under(entry.path, root))) this.#unseen.add(key);
      const hash = entry.digests[entry.algorithm];
      if (hash !== undefined && entry.answer !== undefined) this.#answered(hash, entry.answer);
    }
  }

  /** Opens (or creates) the inventory at `path` with the runtime's SQLite driver, and reads it. */
  static async open(path: string, options: InventoryRunOptions): Promise<InventoryRun> {
    const driver = await chooseSqlite();
    const inventory = Inventory.open(path, driver.open, driver.name);
    try {
      return new InventoryRun(inventory, inventory.load(path), options);
    } catch (error) {
      inventory.close();
      throw error;
    }
  }

  /** Takes the file's identity; a file whose identity is the recorded one is not read again. */
  plan(path: Buffer): Plan {
    let identity: FileIdentity;
    try {
      const info = statSync(path);
      identity = { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, dev: info.dev };
    } catch {
      return { kind: 'hash' }; // reading it reports why it cannot be read
    }
    const key = path.toString('latin1');
    this.#unseen.delete(key);
    this.#identities.set(key, identity);
    const previous = this.#entries.get(key);
    if (previous === undefined || !sameIdentity(previous.identity, identity)) return { kind: 'hash' };
    const digests: Partial<Record<HashAlgorithm, string>> = {};
    for (const algorithm of this.#options.algorithms) {
      const digest = previous.digests[algorithm];
      if (digest === undefined) return { kind: 'hash' };
      digests[algorithm] = digest;
    }
    return {
      kind: 'known',
      file: { index: -1, path, size: identity.size, digests: digests as HashedFile<HashAlgorithm>['digests'] },
    };
  }

  /** Files under `path` are kept as they are (it could not be listed): never `gone` for that. */
  keep(path: Buffer): void {
    const root = rootPrefix(path.toString('latin1'));
    for (const key of this.#unseen) if (under(Buffer.from(key, 'latin1'), root)) this.#unseen.delete(key);
  }

  /** An answer for `hash` younger than `--max-age`, as an outcome and when it was obtained. */
  freshAnswer(hash: string): { readonly outcome: OutcomeView; readonly at: number } | undefined {
    const answer = this.#fresh.get(hash);
    if (answer === undefined) return undefined;
    const outcome: OutcomeView =
      answer.verdict === 'malicious'
        ? {
            verdict: 'malicious',
            source: answer.source,
            data: { first_seen: answer.firstSeen, last_seen: answer.lastSeen },
          }
        : { verdict: 'not_detected' };
    return { outcome, at: answer.checkedAtMs };
  }

  /** A file with its outcome (asked now, or a fresh answer from `at`): its transition, and its record. */
  settle(
    file: HashedFile<HashAlgorithm, Buffer>,
    outcome: OutcomeView,
    decision: 'allow' | 'block' | 'review',
    at: number,
  ): Settled {
    const key = file.path.toString('latin1');
    const identity = this.#identities.get(key);
    this.#identities.delete(key);
    const algorithm = this.#options.algorithms[0] as HashAlgorithm;
    const hash = file.digests[algorithm];
    const previous = this.#entries.get(key);
    const answer = storedAnswer(outcome, at);
    if (hash !== undefined && answer !== undefined) this.#answered(hash, answer);
    const cells = transition(previous && { decision: previous.decision, hash: previous.digests[algorithm] }, {
      decision,
      hash,
    });
    const unchanged =
      previous !== undefined &&
      identity !== undefined &&
      sameIdentity(previous.identity, identity) &&
      cells.change === 'unchanged' &&
      previous.answer?.checkedAtMs === answer?.checkedAtMs;
    const entry: InventoryEntry = {
      path: file.path,
      identity: identity ?? { size: file.size, mtimeMs: -1, ino: -1, dev: -1 },
      digests: file.digests,
      algorithm,
      decision,
      answer,
    };
    // A file met as it was, with the answer it had: nothing to write.
    return { cells, record: unchanged ? () => {} : () => this.#inventory.put(entry) };
  }

  /** The transition of a file that could not be read (nothing recorded: its last state stands). */
  unreadable(path: Buffer, decision: string): TransitionCells {
    const key = path.toString('latin1');
    this.#unseen.delete(key);
    this.#identities.delete(key);
    const previous = this.#entries.get(key);
    return transition(previous && { decision: previous.decision, hash: undefined }, { decision, hash: undefined });
  }

  /** Recorded files under the roots that the walk did not meet; call once the walk has ended. */
  *gone(): Generator<{ readonly entry: InventoryEntry; readonly record: () => void }, void, undefined> {
    for (const key of this.#unseen) {
      const entry = this.#entries.get(key) as InventoryEntry;
      yield { entry, record: () => this.#inventory.remove(entry.path) };
    }
  }

  /** An answer had for `hash` elsewhere (an object): it stands for files too while younger than `--max-age`. */
  remember(hash: string, answer: StoredAnswer): void {
    this.#answered(hash, answer);
  }

  /** Writes what is pending and closes the inventory. */
  close(): void {
    this.#inventory.close();
  }

  #answered(hash: string, answer: StoredAnswer): void {
    if (answer.checkedAtMs < this.#since) return;
    const known = this.#fresh.get(hash);
    if (known === undefined || known.checkedAtMs < answer.checkedAtMs) this.#fresh.set(hash, answer);
  }
}

function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.dev === b.dev;
}

/** A root's bytes (latin1) as a prefix: its files are `root/…` (a trailing slash dropped, `/` kept). */
function rootPrefix(root: string): string {
  const trimmed = root.replace(/\/+$/, '');
  return trimmed === '' && root !== '' ? '/' : trimmed;
}

function under(path: Buffer, root: string): boolean {
  const key = path.toString('latin1');
  return key === root || key.startsWith(root === '/' ? '/' : `${root}/`);
}
