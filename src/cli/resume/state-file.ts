/**
 * The resume room: what `lookup --resume STATE` keeps on disk, and the
 * checks that let a rerun skip a line only when the state proves that the
 * same input line was answered, and answered recently enough
 * (`answered-lines.ts`: each settled line's decision and time). Imports the
 * input room's digests and the CLI's range set and usage error, nothing else.
 *
 * This file: the snapshot `STATE`, one JSON line and a SHA-256 of it.
 */
import { createHash } from 'node:crypto';
import { BLOCK_LINES, type BlockDigest } from '../input/block-digests.js';
import { UsageError } from '../usage-error.js';
import { AnsweredLines } from './answered-lines.js';

const FORMAT = 'hashscan-sms-resume';
/** 3: every settled line with its decision and the time it was answered (2 kept counts only, and no time). */
const VERSION = 3;

/** Where the input came from: shown in messages only (the block digests are what identify it). */
export type InputSource =
  | { readonly source: 'file'; readonly path: string }
  | { readonly source: 'stdin' }
  | { readonly source: 'args' };

/** One snapshot of a run. */
export interface Snapshot {
  /** Random; journal lines are bound to it. */
  readonly id: string;
  /** The id of the snapshot this one replaced: its journal, left by a kill, is already in this one. */
  readonly previous: string | null;
  readonly input: InputSource;
  /** Digests of the input read, block by block (every block full but the last). */
  readonly blocks: readonly BlockDigest[];
  /** Settled lines, by decision and time of answer. */
  readonly answers: AnsweredLines;
}

const HEX64 = /^[0-9a-f]{64}$/;
const ID = /^[0-9a-f]{32}$/;

/** The file's text: the snapshot as one JSON line, then `sha256 <hex of that line>`. */
export function serializeSnapshot(snapshot: Snapshot): string {
  const body = JSON.stringify({
    format: FORMAT,
    version: VERSION,
    id: snapshot.id,
    previous: snapshot.previous,
    input: snapshot.input,
    blockLines: BLOCK_LINES,
    blocks: snapshot.blocks.map((block) => [block.lines, block.digest]),
    answers: snapshot.answers,
  });
  return `${body}\nsha256 ${createHash('sha256').update(body).digest('hex')}\n`;
}

/** Parses and checks a snapshot; any doubt is a usage error (exit 64), never a guess. */
export function parseSnapshot(text: string, path: string): Snapshot {
  const refuse = (why: string): UsageError =>
    new UsageError(`--resume ${path} cannot be trusted (${why}); use a new state file`);
  const [body, sum, rest] = text.split('\n');
  if (body === undefined || sum === undefined || (rest !== undefined && rest !== ''))
    throw refuse('not a hashscan-sms state file');
  if (sum !== `sha256 ${createHash('sha256').update(body).digest('hex')}`) throw refuse('its checksum does not match');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw refuse('not JSON');
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (record.format !== FORMAT) throw refuse('not a hashscan-sms state file');
  if (record.version === 2) {
    throw refuse('written by an earlier version, without the time of each answer, so their age cannot be proven');
  }
  if (record.version !== VERSION) throw refuse('not a state file of this version');
  if (typeof record.id !== 'string' || !ID.test(record.id)) throw refuse('no id');
  const previous = record.previous;
  if (previous !== null && (typeof previous !== 'string' || !ID.test(previous))) throw refuse('bad previous id');
  if (record.blockLines !== BLOCK_LINES) throw refuse('another block size');
  const blocks = parseBlocks(record.blocks);
  if (blocks === undefined) throw refuse('bad input digests');
  const input = parseSource(record.input);
  if (input === undefined) throw refuse('bad input description');
  const answers = AnsweredLines.parse(record.answers, coveredLines(blocks));
  if (answers === undefined) throw refuse('bad settled lines or times, or settled lines beyond the input it recorded');
  return { id: record.id, previous, input, blocks, answers };
}

/** Lines covered by block digests (all full but the last). */
export function coveredLines(blocks: readonly BlockDigest[]): number {
  const last = blocks.at(-1);
  return last === undefined ? 0 : last.block * BLOCK_LINES + last.lines;
}

function parseBlocks(value: unknown): BlockDigest[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const blocks: BlockDigest[] = [];
  for (const [i, entry] of value.entries()) {
    if (!Array.isArray(entry) || entry.length !== 2) return undefined;
    const [lines, digest] = entry as unknown[];
    if (!Number.isSafeInteger(lines) || typeof digest !== 'string' || !HEX64.test(digest)) return undefined;
    const n = lines as number;
    const last = i === value.length - 1;
    if (n < 1 || n > BLOCK_LINES || (!last && n !== BLOCK_LINES)) return undefined;
    blocks.push({ block: i, lines: n, digest });
  }
  return blocks;
}

function parseSource(value: unknown): InputSource | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { source, path } = value as { source?: unknown; path?: unknown };
  if (source === 'file' && typeof path === 'string') return { source, path };
  if (source === 'stdin' || source === 'args') return { source };
  return undefined;
}

/** A short description of a source, for messages. */
export function describeSource(input: InputSource): string {
  return input.source === 'file' ? `file ${input.path}` : input.source;
}
