import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOCK_LINES, type BlockDigest } from '../../../src/cli/input/block-digests.js';
import { settledLine } from '../../../src/cli/resume/journal.js';
import { ResumeState } from '../../../src/cli/resume/resume-state.js';
import type { InputSource } from '../../../src/cli/resume/state-file.js';
import { UsageError } from '../../../src/cli/usage-error.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir('hashscan-sms-resume-');
const INPUT: InputSource = { source: 'file', path: '/data/hashes.txt' };
let next = 0;
const freshPath = (): string => join(dir, `state-${next++}`);
/** The digest of the first `lines` lines of block 0 (what the reader would report). */
const read =
  (lines: number): (() => BlockDigest) =>
  () => ({ block: 0, lines, digest: 'a'.repeat(64) });
/** Journal writes of a turn go out together, before the event loop turns. */
const flushed = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const NOW = Date.UTC(2026, 10, 27, 8);
const DAY = 86_400_000;
/** Recorded answers are skipped for a day. */
const FRESH = { maxAgeMs: DAY, now: NOW };
/** Rewrites a snapshot's JSON and its checksum, as an editor with the format in hand would. */
function rewrite(path: string, edit: (body: Record<string, unknown>) => void): void {
  const [body] = readFileSync(path, 'utf8').split('\n');
  const value = JSON.parse(body as string) as Record<string, unknown>;
  edit(value);
  const text = JSON.stringify(value);
  writeFileSync(path, `${text}\nsha256 ${createHash('sha256').update(text).digest('hex')}\n`);
}

describe('ResumeState', () => {
  it('starts afresh without a file, and a reopened state knows what was settled and how', async () => {
    const path = freshPath();
    const first = ResumeState.open(path, INPUT, FRESH);
    expect(first.isSettled(1)).toBe(false);
    first.record(1, 'allow', NOW, read(3));
    first.record(2, 'block', NOW, read(3));
    first.record(2, 'block', NOW, read(3)); // twice is once
    await flushed();
    first.close();
    const again = ResumeState.open(path, INPUT, FRESH);
    expect([again.isSettled(1), again.isSettled(2), again.isSettled(3)]).toEqual([true, true, false]);
    expect(again.counts).toEqual({ allow: 1, block: 1, review: 0 });
    expect(again.recorded(0)).toEqual({ block: 0, lines: 3, digest: 'a'.repeat(64) });
    again.close();
  });

  it('replays the journal of a run killed before its snapshot, dropping a torn last line', async () => {
    const path = freshPath();
    const state = ResumeState.open(path, INPUT, FRESH);
    state.record(4, 'review', NOW, read(5));
    state.record(5, 'allow', NOW, read(5));
    await flushed();
    // Killed here: no snapshot; a last record cut half-way.
    appendFileSync(`${path}.journal`, 's 6 a 12');
    const replayed = ResumeState.open(path, INPUT, FRESH);
    expect([replayed.isSettled(4), replayed.isSettled(5), replayed.isSettled(6)]).toEqual([true, true, false]);
    expect(replayed.counts).toEqual({ allow: 1, block: 0, review: 1 });
    // Opening snapshots what it replayed and starts a journal bound to the new snapshot.
    expect(readFileSync(`${path}.journal`, 'utf8')).toMatch(/^hashscan-sms-journal [0-9a-f]{32}\n$/);
    replayed.close();
  });

  it('never settles a line it has no input digest for', async () => {
    const path = freshPath();
    const state = ResumeState.open(path, INPUT, FRESH);
    state.record(BLOCK_LINES + 5, 'allow', NOW, () => undefined);
    await flushed();
    expect(state.isSettled(BLOCK_LINES + 5)).toBe(false);
    state.close();
  });

  it('refuses a file that is not a state file, a changed snapshot, and counts that do not add up', () => {
    for (const text of ['not json', '[]\nsha256 x\n', '{"format":"hashscan-sms-resume","version":1}']) {
      const path = freshPath();
      writeFileSync(path, text);
      expect(() => ResumeState.open(path, INPUT, FRESH)).toThrow(UsageError);
    }
    const path = freshPath();
    ResumeState.open(path, INPUT, FRESH).close();
    const [body, sum] = readFileSync(path, 'utf8').split('\n');
    writeFileSync(path, `${(body as string).replace('"answers":[]', '"answers":[[1,[[1,1]],[],[]]]')}\n${sum}\n`);
    expect(() => ResumeState.open(path, INPUT, FRESH)).toThrow(/checksum does not match/);
  });

  it('skips only answers within the maximum age; one asked again leaves its old answer and count', async () => {
    const path = freshPath();
    const first = ResumeState.open(path, INPUT, { maxAgeMs: DAY, now: NOW - 2 * DAY });
    first.record(1, 'allow', NOW - 2 * DAY, read(3));
    first.record(2, 'allow', NOW - 2 * DAY, read(3));
    await flushed();
    first.close();
    const later = ResumeState.open(path, INPUT, { maxAgeMs: DAY, now: NOW - 2 * DAY + 5_000 });
    expect([later.isSettled(1), later.isSettled(2)]).toEqual([true, true]);
    later.record(3, 'review', NOW - 2 * DAY + 6_000, read(3));
    await flushed();
    later.close();

    const old = ResumeState.open(path, INPUT, FRESH);
    expect([old.isSettled(1), old.isSettled(2), old.isSettled(3)]).toEqual([false, false, false]);
    expect(old.counts).toEqual({ allow: 0, block: 0, review: 0 });
    expect(old.stale).toEqual({ lines: 3, oldestMs: 2 * DAY });
    old.record(1, 'block', NOW, read(3)); // the service flags it now
    await flushed();
    // Killed before its snapshot: the journal's later answer replaces the old one.
    const replayed = ResumeState.open(path, INPUT, FRESH);
    expect([replayed.isSettled(1), replayed.isSettled(2)]).toEqual([true, false]);
    expect(replayed.counts).toEqual({ allow: 0, block: 1, review: 0 });
    expect(replayed.stale).toEqual({ lines: 2, oldestMs: 2 * DAY });
    replayed.close();
    // A longer maximum age skips the old answers again, each counted once, under its latest decision.
    const lenient = ResumeState.open(path, INPUT, { maxAgeMs: 3 * DAY, now: NOW });
    expect(lenient.counts).toEqual({ allow: 1, block: 1, review: 1 });
    expect(lenient.stale).toBeUndefined();
    lenient.close();
  });

  it('never files a fresh answer under the time of a stale one answered within the same minute', async () => {
    const path = freshPath();
    const first = ResumeState.open(path, INPUT, { maxAgeMs: 1_000, now: NOW - 30_000 });
    first.record(1, 'allow', NOW - 30_000, read(3));
    await flushed();
    first.close();
    const strict = ResumeState.open(path, INPUT, { maxAgeMs: 1_000, now: NOW });
    expect(strict.isSettled(1)).toBe(false);
    strict.record(2, 'block', NOW, read(3));
    expect(strict.counts).toEqual({ allow: 0, block: 1, review: 0 });
    await flushed();
    strict.close();
    expect(ResumeState.open(path, INPUT, { maxAgeMs: 1_000, now: NOW }).counts).toEqual({
      allow: 0,
      block: 1,
      review: 0,
    });
  });

  it('refuses a state of the version before answer times, answers dated ahead of the clock, and a line twice', () => {
    const path = freshPath();
    const state = ResumeState.open(path, INPUT, FRESH);
    state.record(1, 'allow', NOW, read(3));
    state.close();
    rewrite(path, (body) => {
      body.version = 2;
    });
    expect(() => ResumeState.open(path, INPUT, FRESH)).toThrow(/earlier version.*age cannot be proven/);
    rewrite(path, (body) => {
      body.version = 3;
    });
    expect(() => ResumeState.open(path, INPUT, { maxAgeMs: DAY, now: NOW - 3_600_000 })).toThrow(
      /answers dated 3600 s ahead of this machine's clock/,
    );
    for (const answers of [
      [[NOW / 1_000, [[1, 1]], [[1, 1]], []]],
      [
        [NOW / 1_000, [[1, 1]], [], []],
        [NOW / 1_000 + 60, [], [[1, 1]], []],
      ],
      [[NOW / 1_000, [], [], []]],
      [[NOW / 1_000, [[4, 4]], [], []]], // beyond the 3 lines it has digests for
      [[-5, [[1, 1]], [], []]],
    ]) {
      rewrite(path, (body) => {
        body.answers = answers;
      });
      expect(() => ResumeState.open(path, INPUT, FRESH)).toThrow(/bad settled lines or times/);
    }
  });

  it('refuses a journal that settles a line before saying when', async () => {
    const path = freshPath();
    ResumeState.open(path, INPUT, FRESH).close();
    const journal = readFileSync(`${path}.journal`, 'utf8');
    const id = journal.split(' ')[1]?.trim() as string;
    appendFileSync(`${path}.journal`, settledLine(id, 1, 'allow'));
    expect(() => ResumeState.open(path, INPUT, FRESH)).toThrow(/its journal: line 2 does not check/);
  });
});
