import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type InputIdentity, ResumeState } from '../../src/cli/resume-state.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { useTempDir } from '../helpers/temp-dir.js';

const dir = useTempDir('hashscan-sms-resume-');
const INPUT: InputIdentity = { source: 'file', path: '/data/hashes.txt', size: 120, mtimeMs: 1_700_000_000_000 };
let next = 0;
const freshPath = (): string => join(dir, `state-${next++}.json`);

describe('ResumeState', () => {
  it('starts afresh without a file, and a reopened state knows what was settled and how', () => {
    const path = freshPath();
    const first = ResumeState.open(path, INPUT);
    expect(first.isSettled(1)).toBe(false);
    first.record(1, 'allow');
    first.record(2, 'block');
    first.record(2, 'block'); // twice is once
    first.close();
    const again = ResumeState.open(path, INPUT);
    expect([again.isSettled(1), again.isSettled(2), again.isSettled(3)]).toEqual([true, true, false]);
    expect(again.counts).toEqual({ allow: 1, block: 1, review: 0 });
    again.close();
  });

  it('replays the journal of a run killed before its snapshot, skipping a torn last line and repeats', () => {
    const path = freshPath();
    ResumeState.open(path, INPUT).close();
    appendFileSync(`${path}.journal`, '4 r\n5 a\n4 r\n6');
    const state = ResumeState.open(path, INPUT);
    expect([state.isSettled(4), state.isSettled(5), state.isSettled(6)]).toEqual([true, true, false]);
    expect(state.counts).toEqual({ allow: 1, block: 0, review: 1 });
    // Opening snapshots the replayed journal and empties it.
    expect(readFileSync(`${path}.journal`, 'utf8')).toBe('');
    state.close();
  });

  it('refuses a state written for another input', () => {
    const path = freshPath();
    ResumeState.open(path, INPUT).close();
    expect(() => ResumeState.open(path, { source: 'stdin' })).toThrow(UsageError);
    expect(() => ResumeState.open(path, { ...INPUT, size: 121 })).toThrow(/another input \(file \/data\/hashes.txt\)/);
  });

  it('refuses a file that is not a state file, whatever it holds', () => {
    for (const text of ['not json', '[]', 'null', '{"format":"hashscan-sms-resume","version":2}']) {
      const path = freshPath();
      writeFileSync(path, text);
      expect(() => ResumeState.open(path, INPUT)).toThrow(/is not a hashscan-sms state file/);
    }
    const path = freshPath();
    ResumeState.open(path, INPUT).close();
    const snapshot = JSON.parse(readFileSync(path, 'utf8')) as { counts: Record<string, unknown> };
    snapshot.counts.allow = -1;
    writeFileSync(path, JSON.stringify(snapshot));
    expect(() => ResumeState.open(path, INPUT)).toThrow(/is not a hashscan-sms state file/);
  });
});
