import { BLOCK_LINES, type BlockDigests } from '../input/block-digests.js';
import type { RawLine } from '../input/byte-lines.js';
import { counted } from '../tally.js';
import { UsageError } from '../usage-error.js';
import type { ResumeState } from './resume-state.js';

/**
 * Lines of a resumed run, released only once the state's digest of their
 * block matched what was read: a line the state calls settled is skipped
 * only when the same input line was answered. Lines of a block the state
 * has a digest for are held until that many lines are read (at most one
 * block); lines past what the state covers pass at once. A mismatch, or an
 * input shorter than the state covers, is a refusal (exit 64).
 */
export async function* verifiedLines(
  batches: AsyncIterable<readonly RawLine[]>,
  digests: BlockDigests,
  state: ResumeState,
  path: string,
): AsyncGenerator<readonly RawLine[], void, undefined> {
  const refuse = (why: string): UsageError => {
    state.refuse();
    return new UsageError(
      `--resume ${path} was written for another input (${why}; it recorded ${state.recordedInput}); use a new state file or the same input`,
    );
  };
  let held: RawLine[] = [];
  for await (const batch of batches) {
    const released: RawLine[] = [];
    for (const line of batch) {
      if (digests.mismatch !== undefined) {
        const first = digests.mismatch.block * BLOCK_LINES + 1;
        throw refuse(`lines ${first}–${first + digests.mismatch.lines - 1} differ`);
      }
      const block = Math.floor((line.number - 1) / BLOCK_LINES);
      const recorded = state.recorded(block);
      const lastCovered = recorded === undefined ? 0 : block * BLOCK_LINES + recorded.lines;
      if (line.number > lastCovered) {
        released.push(line);
        continue;
      }
      held.push(line);
      if (line.number < lastCovered) continue;
      // The block's recorded lines are all read, and were checked as the last of them was.
      for (const each of held) released.push(each);
      held = [];
    }
    if (released.length > 0) yield released;
  }
  if (digests.mismatch !== undefined) throw refuse('the input differs');
  if (held.length > 0 || digests.linesRead < state.coveredLines) {
    throw refuse(`it covers ${counted(state.coveredLines, 'line')}, the input has ${digests.linesRead}`);
  }
}
