import { createHash, type Hash } from 'node:crypto';
import type { LineObserver } from './byte-lines.js';

/** Lines per digest block: a resumed run holds at most one block while it checks it. */
export const BLOCK_LINES = 1024;

/** The digest of the first `lines` lines of block `block` (lines `block * BLOCK_LINES + 1` on). */
export interface BlockDigest {
  readonly block: number;
  readonly lines: number;
  /** SHA-256, hex, of those lines' bytes as read (terminators included). */
  readonly digest: string;
}

/**
 * SHA-256 digests of the input in blocks of {@link BLOCK_LINES} lines, as
 * it is read: what a resume state stores to prove which input its settled
 * lines belong to (a path, a size or a time proves nothing about stdin, nor
 * about a file rewritten in place). `prefix()` gives the digest of the block
 * read so far, for a line settled before its block is complete.
 */
export class BlockDigests implements LineObserver {
  #hash: Hash = createHash('sha256');
  #block = 0;
  #lines = 0;
  readonly #onBlock: (digest: BlockDigest) => void;
  readonly #expected: (block: number) => BlockDigest | undefined;
  /** The first block whose recorded digest the input read does not match. */
  mismatch: BlockDigest | undefined;

  /**
   * @param onBlock - Called with each full block's digest.
   * @param expected - The digest recorded earlier for a block: checked as soon as that many of its lines are read.
   */
  constructor(onBlock: (digest: BlockDigest) => void, expected: (block: number) => BlockDigest | undefined) {
    this.#onBlock = onBlock;
    this.#expected = expected;
  }

  bytes(chunk: Buffer): void {
    this.#hash.update(chunk);
  }

  lineEnd(): void {
    this.#lines += 1;
    const full = this.#lines === BLOCK_LINES;
    const want = this.#expected(this.#block);
    let digest: string | undefined;
    if (want !== undefined && want.lines === this.#lines) {
      digest = full ? this.#hash.digest('hex') : this.#hash.copy().digest('hex');
      if (digest !== want.digest) this.mismatch ??= want;
    }
    if (!full) return;
    this.#onBlock({ block: this.#block, lines: this.#lines, digest: digest ?? this.#hash.digest('hex') });
    this.#hash = createHash('sha256');
    this.#block += 1;
    this.#lines = 0;
  }

  /** Lines read so far. */
  get linesRead(): number {
    return this.#block * BLOCK_LINES + this.#lines;
  }

  /** The digest of the lines of the current block read so far (`undefined` before its first line). */
  prefix(): BlockDigest | undefined {
    if (this.#lines === 0) return undefined;
    return { block: this.#block, lines: this.#lines, digest: this.#hash.copy().digest('hex') };
  }
}
