/**
 * A lookup contest: contenders that each take a list of hashes and return
 * one outcome per hash, run interleaved over fresh inputs, measured for wall
 * time and CPU. Shared by the throughput, remote-server and duplicates runs.
 */
import { interleave, type Measured, measure } from './interleave.js';
import { expectAllNotDetected } from './raw-loop.js';
import { ratio, type Summary, summarize } from './stats.js';

/** One contender: looks up every hash, one outcome each. */
export type Lookup = (hashes: string[]) => Promise<readonly { verdict: string }[]>;

/** What one contender did over the rounds. */
export interface ContenderFigures {
  /** Inputs per second of wall time. */
  readonly perSecond: Summary;
  /** Microseconds of this process's CPU (user + system) per input. */
  readonly cpuUs: Summary;
}

export interface Contest<K extends string> {
  readonly figures: Readonly<Record<K, ContenderFigures>>;
  /** Per round: `a`'s throughput over `b`'s (`time(b) / time(a)`). */
  speed(a: K, b: K): Summary;
  /** Per round: `a`'s CPU per input over `b`'s. */
  cpu(a: K, b: K): Summary;
}

export interface ContestOptions {
  readonly rounds: number;
  /** Run an unmeasured round first (connections, JIT); quick runs skip it. */
  readonly warmUp: boolean;
  /** Fresh inputs for each run of each contender; `n` is their count. */
  readonly inputs: () => string[];
  readonly n: number;
  /** Runs before each measured run (e.g. resetting the server's counter); not measured. */
  readonly before?: () => Promise<void>;
  /** Runs after each measured run with the contender's name; not measured. */
  readonly after?: (name: string) => Promise<void>;
}

export async function contest<K extends string>(
  contenders: Readonly<Record<K, Lookup>>,
  options: ContestOptions,
): Promise<Contest<K>> {
  const { rounds, inputs, n } = options;
  let measuring = false;
  const runs = Object.fromEntries(
    (Object.entries(contenders) as [K, Lookup][]).map(([name, lookup]) => [
      name,
      async (): Promise<Measured> => {
        const hashes = inputs();
        await options.before?.();
        const measured = await measure(async () => expectAllNotDetected(await lookup(hashes), name));
        if (measuring) await options.after?.(name);
        return measured;
      },
    ]),
  ) as Record<K, () => Promise<Measured>>;
  if (options.warmUp) await interleave(1, runs);
  measuring = true;
  const measured = await interleave(rounds, runs);
  const figures = Object.fromEntries(
    (Object.entries(measured) as [K, Measured[]][]).map(([name, list]) => [
      name,
      {
        perSecond: summarize(
          list.map((run) => (n / run.ms) * 1000),
          0,
        ),
        cpuUs: summarize(
          list.map((run) => run.cpuUs / n),
          1,
        ),
      },
    ]),
  ) as Record<K, ContenderFigures>;
  const ms = (name: K) => measured[name].map((run) => run.ms);
  const cpu = (name: K) => measured[name].map((run) => run.cpuUs);
  return {
    figures,
    speed: (a, b) => ratio(ms(b), ms(a)),
    cpu: (a, b) => ratio(cpu(a), cpu(b)),
  };
}
