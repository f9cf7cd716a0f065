import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOCK_LINES, type BlockDigest } from '../../../src/cli/input/block-digests.js';
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

describe('ResumeState', () => {
  it('starts afresh without a file, and a reopened state knows what was settled and how', async () => {
    const path = freshPath();
    const first = ResumeState.open(path, INPUT);
    expect(first.isSettled(1)).toBe(false);
    first.record(1, 'allow', read(3));
    first.record(2, 'block', read(3));
    first.record(2, 'block', read(3)); // twice is once
    await flushed();
    first.close();
    const again = ResumeState.open(path, INPUT);
    expect([again.isSettled(1), again.isSettled(2), again.isSettled(3)]).toEqual([true, true, false]);
    expect(again.counts).toEqual({ allow: 1, block: 1, review: 0 });
    expect(again.recorded(0)).toEqual({ block: 0, lines: 3, digest: 'a'.repeat(64) });
    again.close();
  });

  it('replays the journal of a run killed before its snapshot, dropping a torn last line', async () => {
    const path = freshPath();
    const state = ResumeState.open(path, INPUT);
    state.record(4, 'review', read(5));
    state.record(5, 'allow', read(5));
    await flushed();
    // Killed here: no snapshot; a last record cut half-way.
    appendFileSync(`${path}.journal`, 's 6 a 12');
    const replayed = ResumeState.open(path, INPUT);
    expect([replayed.isSettled(4), replayed.isSettled(5), replayed.isSettled(6)]).toEqual([true, true, false]);
    expect(replayed.counts).toEqual({ allow: 1, block: 0, review: 1 });
    // Opening snapshots what it replayed and starts a journal bound to the new snapshot.
    expect(readFileSync(`${path}.journal`, 'utf8')).toMatch(/^hashscan-sms-journal [0-9a-f]{32}\n$/);
    replayed.close();
  });

  it('never settles a line it has no input digest for', async () => {
    const path = freshPath();
    const state = ResumeState.open(path, INPUT);
    state.record(BLOCK_LINES + 5, 'allow', () => undefined);
    await flushed();
    expect(state.isSettled(BLOCK_LINES + 5)).toBe(false);
    state.close();
  });

  it('refuses a file that is not a state file, a changed snapshot, and counts that do not add up', () => {
    for (const text of ['not json', '[]\nsha256 x\n', '{"format":"hashscan-sms-resume","version":1}']) {
      const path = freshPath();
      writeFileSync(path, text);
      expect(() => ResumeState.open(path, INPUT)).toThrow(UsageError);
    }
    const path = freshPath();
    ResumeState.open(path, INPUT).close();
    const [body, sum] = readFileSync(path, 'utf8').split('\n');
    writeFileSync(path, `${(body as string).replace('"settled":[]', '"settled":[[1,1]]')}\n${sum}\n`);
    expect(() => ResumeState.open(path, INPUT)).toThrow(/checksum does not match/);
  });
});
