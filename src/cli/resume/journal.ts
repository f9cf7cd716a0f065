/**
 * The journal `STATE.journal`: what was settled since the snapshot, one
 * line per record, each appended right after its result was printed, after
 * a time record (`t`, seconds since the epoch) whenever the second changed:
 * a settled line was answered at the time before it. Its
 * first line names the snapshot it continues; every record carries a CRC-32
 * over that snapshot's id and its own text, so a journal never applies to a
 * state it was not written for, and an edited or damaged line is found.
 */
import { crc32 } from 'node:zlib';
import { BLOCK_LINES, type BlockDigest } from '../input/block-digests.js';
import type { Decision } from './answered-lines.js';

const LETTER: Readonly<Record<Decision, string>> = { allow: 'a', block: 'b', review: 'r' };
const DECISION: Readonly<Record<string, Decision>> = { a: 'allow', b: 'block', r: 'review' };
const HEADER = 'hashscan-sms-journal';

/** A journal record: a settled line, or the digest of input read (so settled lines are bound to it). */
type JournalRecord =
  | { readonly kind: 'settled'; readonly line: number; readonly decision: Decision; readonly at: number }
  | { readonly kind: 'digest'; readonly digest: BlockDigest };

function check(id: string, body: string): string {
  return crc32(`${id} ${body}`).toString(16).padStart(8, '0');
}

export function journalHeader(id: string): string {
  return `${HEADER} ${id}\n`;
}

export function settledLine(id: string, line: number, decision: Decision): string {
  const body = `s ${line} ${LETTER[decision]}`;
  return `${body} ${check(id, body)}\n`;
}

export function timeLine(id: string, at: number): string {
  const body = `t ${at}`;
  return `${body} ${check(id, body)}\n`;
}

export function digestLine(id: string, digest: BlockDigest): string {
  const body = `d ${digest.block} ${digest.lines} ${digest.digest}`;
  return `${body} ${check(id, body)}\n`;
}

/** What a journal's text says: the id it continues, and its records; `problem` when a line does not check. */
export type ParsedJournal =
  | { readonly id: string | undefined; readonly records: readonly JournalRecord[]; readonly problem?: undefined }
  | { readonly problem: string };

/**
 * Parses a journal. Only its last line may be incomplete (a kill in the
 * middle of a write): it is dropped. Any other line that does not parse or
 * check is a problem, never skipped.
 */
export function parseJournal(text: string): ParsedJournal {
  if (text === '') return { id: undefined, records: [] };
  const lines = text.split('\n');
  lines.pop(); // after the last newline: empty, or a line cut by a kill
  const [header, ...rest] = lines;
  if (header === undefined) return { id: undefined, records: [] };
  const head = /^hashscan-sms-journal ([0-9a-f]{32})$/.exec(header);
  if (head === null) return { problem: 'its first line is not a journal header' };
  const id = head[1] as string;
  const records: JournalRecord[] = [];
  let at: number | undefined;
  for (const [i, line] of rest.entries()) {
    const record = parseRecord(id, line, at);
    if (record === undefined) return { problem: `line ${i + 2} does not check` };
    if (typeof record === 'number') at = record;
    else records.push(record);
  }
  return { id, records };
}

/** A record, or the time a `t` record sets (a settled line before any time is a problem). */
function parseRecord(id: string, line: string, at: number | undefined): JournalRecord | number | undefined {
  const cut = line.lastIndexOf(' ');
  const body = line.slice(0, cut);
  if (cut === -1 || line.slice(cut + 1) !== check(id, body)) return undefined;
  const time = /^t ([1-9]\d{0,15})$/.exec(body);
  if (time !== null) return Number.isSafeInteger(Number(time[1])) ? Number(time[1]) : undefined;
  const settled = /^s ([1-9]\d{0,15}) ([abr])$/.exec(body);
  if (settled !== null) {
    if (at === undefined) return undefined;
    return { kind: 'settled', line: Number(settled[1]), decision: DECISION[settled[2] as string] as Decision, at };
  }
  const digest = /^d (0|[1-9]\d{0,15}) ([1-9]\d{0,4}) ([0-9a-f]{64})$/.exec(body);
  if (digest === null) return undefined;
  const lines = Number(digest[2]);
  if (lines > BLOCK_LINES) return undefined;
  return { kind: 'digest', digest: { block: Number(digest[1]), lines, digest: digest[3] as string } };
}
