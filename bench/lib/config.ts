import { fileURLToPath } from 'node:url';

/** Quick mode (CI): small inputs, one or two rounds, results kept out of bench/results.json. */
export const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BENCH_DIR = fileURLToPath(new URL('../', import.meta.url));
export const NODE_MAJOR = process.versions.node.split('.')[0];
/**
 * Where results go: in full mode the committed file of this Node major
 * (`bench/results.node24.json`), in quick mode the git-ignored scratch dir.
 */
export const RESULTS_FILE = QUICK ? `${BENCH_DIR}.tmp/results.json` : `${BENCH_DIR}results.node${NODE_MAJOR}.json`;

export const SETTINGS: {
  rounds: number;
  /** Whether the lookup runs start with an unmeasured round (connections, JIT). */
  warmUp: boolean;
  batch: number;
  remoteBatch: number;
  concurrency: number;
  cacheWarm: number;
  cacheOps: number;
  signingOps: number;
  streamSizes: number[];
  importSamples: number;
} = QUICK
  ? {
      rounds: 2,
      warmUp: false,
      batch: 300,
      remoteBatch: 128,
      concurrency: 64,
      cacheWarm: 1_000,
      cacheOps: 20_000,
      signingOps: 2_000,
      streamSizes: [1_000, 4_000],
      importSamples: 2,
    }
  : {
      rounds: 7,
      warmUp: true,
      /**
       * 20,000 lookups: a round of the fastest contender (the dispatcher paths,
       * ~30,000/s) lasts over half a second, long past GC and JIT transients. At
       * 6,000 the dispatcher ÷ `undici.request` ratio swung 0.82–1.06× between rounds.
       */
      batch: 20_000,
      /** At c=64 and 20 ms a lookup, 4,096 lookups take at least 1.3 s. */
      remoteBatch: 4_096,
      concurrency: 64,
      cacheWarm: 5_000,
      cacheOps: 1_000_000,
      signingOps: 50_000,
      streamSizes: [50_000, 200_000],
      importSamples: 9,
    };

/** `--rounds=N`, `--batch=N`: override the mode's figures for a focused run (results go to bench/.tmp/). */
const override = (name: string): number | undefined => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg === undefined ? undefined : Number(arg.slice(name.length + 3));
};
export const OVERRIDDEN = override('rounds') !== undefined || override('batch') !== undefined;
if (OVERRIDDEN) {
  Object.assign(SETTINGS, {
    rounds: override('rounds') ?? SETTINGS.rounds,
    batch: override('batch') ?? SETTINGS.batch,
  });
}

export type Settings = typeof SETTINGS;
