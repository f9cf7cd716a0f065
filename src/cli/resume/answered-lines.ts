import { RangeSet } from '../range-set.js';

/** Settled inputs by decision. */
export interface DecisionCounts {
  allow: number;
  block: number;
  review: number;
}

export type Decision = keyof DecisionCounts;
const DECISIONS: readonly Decision[] = ['allow', 'block', 'review'];

/**
 * Lines answered within this many seconds of a group's time join that
 * group, and take its time: a line's recorded time is never later than its
 * answer, so its age is never understated, and a run of hours keeps a few
 * hundred groups.
 */
const GROUP_SECONDS = 60;

/** Settled lines answered from `at` (seconds since the epoch), by decision. */
export interface AnswerGroup {
  readonly at: number;
  readonly lines: Readonly<Record<Decision, RangeSet>>;
}

/**
 * The settled lines of a resume state, each with its decision and when it
 * was answered, in groups sorted by time. A line is in one group at most:
 * asked again, it leaves its old group for the new answer's.
 */
export class AnsweredLines {
  readonly #groups: AnswerGroup[];
  /** Every settled line, whatever its group: most lines recorded are new, and skip the search of the groups. */
  readonly #all: RangeSet;

  private constructor(groups: AnswerGroup[], all: RangeSet) {
    this.#groups = groups;
    this.#all = all;
  }

  static empty(): AnsweredLines {
    return new AnsweredLines([], new RangeSet());
  }

  /**
   * Groups as {@link AnsweredLines.toJSON} wrote them: `[at, allow, block, review]`,
   * times strictly increasing, no group empty, no line twice, every line from
   * 1 to `lastLine`; else `undefined`.
   */
  static parse(value: unknown, lastLine: number): AnsweredLines | undefined {
    if (!Array.isArray(value)) return undefined;
    const groups: AnswerGroup[] = [];
    for (const entry of value) {
      if (!Array.isArray(entry) || entry.length !== 4) return undefined;
      const [at, ...sets] = entry as unknown[];
      if (!Number.isSafeInteger(at) || (at as number) <= (groups.at(-1)?.at ?? 0)) return undefined;
      const [allow, block, review] = sets.map((set) => RangeSet.parse(set));
      if (allow === undefined || block === undefined || review === undefined) return undefined;
      if (allow.size + block.size + review.size === 0) return undefined;
      groups.push({ at: at as number, lines: { allow, block, review } });
    }
    const all = union(groups.flatMap((group) => DECISIONS.map((each) => group.lines[each])));
    if (all === undefined || (all.min !== undefined && (all.min < 1 || (all.max ?? 0) > lastLine))) return undefined;
    return new AnsweredLines(groups, all);
  }

  /** Lines answered at or after `since` (seconds). */
  since(since: number): RangeSet {
    const fresh = this.#groups.filter((group) => group.at >= since);
    return union(fresh.flatMap((group) => DECISIONS.map((each) => group.lines[each]))) ?? new RangeSet();
  }

  /**
   * Settles `line` as answered at `at` (seconds); a line answered before
   * leaves its old group. It joins a group of the last minute only if that
   * group's time is at or after `joinSince`: a fresh answer never takes the
   * time of one too old to skip.
   */
  add(line: number, decision: Decision, at: number, joinSince = 0): void {
    const old = this.#all.has(line) ? this.#groupOf(line) : undefined;
    if (old !== undefined) for (const each of DECISIONS) old.lines[each].delete(line);
    let index = this.#groups.findLastIndex((group) => group.at <= at);
    const near = this.#groups[index];
    if (near === undefined || at - near.at >= GROUP_SECONDS || near.at < joinSince) {
      index += 1;
      const lines = { allow: new RangeSet(), block: new RangeSet(), review: new RangeSet() };
      this.#groups.splice(index, 0, { at, lines });
    }
    (this.#groups[index] as AnswerGroup).lines[decision].add(line);
    this.#all.add(line);
    if (old !== undefined && DECISIONS.every((each) => old.lines[each].size === 0)) {
      this.#groups.splice(this.#groups.indexOf(old), 1);
    }
  }

  /** When `line` was answered (seconds since the epoch), if it was. */
  answeredAt(line: number): number | undefined {
    return this.#all.has(line) ? this.#groupOf(line)?.at : undefined;
  }

  /** Settled lines answered at or after `since` (seconds), by decision. */
  counts(since: number): DecisionCounts {
    const counts = { allow: 0, block: 0, review: 0 };
    for (const group of this.#groups) {
      if (group.at < since) continue;
      for (const each of DECISIONS) counts[each] += group.lines[each].size;
    }
    return counts;
  }

  /** How many settled lines were answered before `since`, and the oldest answer's time. */
  older(since: number): { readonly lines: number; readonly oldest: number | undefined } {
    let lines = 0;
    for (const group of this.#groups) {
      if (group.at >= since) break;
      for (const each of DECISIONS) lines += group.lines[each].size;
    }
    return { lines, oldest: lines > 0 ? this.#groups[0]?.at : undefined };
  }

  /** The latest answer's time, if any. */
  get latest(): number | undefined {
    return this.#groups.at(-1)?.at;
  }

  toJSON(): [number, RangeSet, RangeSet, RangeSet][] {
    return this.#groups.map(({ at, lines }) => [at, lines.allow, lines.block, lines.review]);
  }

  #groupOf(line: number): AnswerGroup | undefined {
    return this.#groups.find((group) => DECISIONS.some((each) => group.lines[each].has(line)));
  }
}

/** The union of disjoint sets; `undefined` if two of them share a number. */
function union(sets: readonly RangeSet[]): RangeSet | undefined {
  const ranges = sets.flatMap((set) => set.toJSON()).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of ranges) {
    const last = merged.at(-1);
    if (last !== undefined && start <= last[1]) return undefined;
    if (last !== undefined && start === last[1] + 1) last[1] = end;
    else merged.push([start, end]);
  }
  return RangeSet.parse(merged);
}
