import { readFile } from 'node:fs/promises';
import { AnsweredLines, type DecisionCounts } from '../../../src/cli/resume/answered-lines.js';

/** What a resume state file settles: every line, whatever its time, and the count of each decision. */
export async function savedAnswers(
  path: string,
): Promise<{ readonly settled: [number, number][]; readonly counts: DecisionCounts }> {
  const snapshot = JSON.parse((await readFile(path, 'utf8')).split('\n')[0] as string) as { answers: unknown };
  const answers = AnsweredLines.parse(snapshot.answers, Number.MAX_SAFE_INTEGER);
  if (answers === undefined) throw new Error(`${path}: no answers a state file would hold`);
  return { settled: answers.since(0).toJSON(), counts: answers.counts(0) };
}
