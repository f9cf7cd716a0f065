import { fileURLToPath } from 'node:url';

/** Quick mode (CI): small inputs, one or two rounds, results kept out of bench/results.json. */
export const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BENCH_DIR = fileURLToPath(new URL('../', import.meta.url));
/** Where results go: the committed file in full mode, the git-ignored scratch dir in quick mode. */
export const RESULTS_FILE = QUICK ? `${BENCH_DIR}.tmp/results.json` : `${BENCH_DIR}results.json`;

export const SETTINGS: {
  rounds: number;
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
      batch: 500,
      remoteBatch: 256,
      concurrency: 64,
      cacheWarm: 1_000,
      cacheOps: 20_000,
      signingOps: 2_000,
      streamSizes: [2_000, 8_000],
      importSamples: 2,
    }
  : {
      rounds: 5,
      batch: 10_000,
      /** At c=64 and 20 ms a lookup, 6,400 lookups take at least 2 s. */
      remoteBatch: 6_400,
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
