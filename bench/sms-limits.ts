/**
 * SMS limits under a slow Redis (issue 28, finding 4): `perHour: 3,
 * dailyBudget: 5`, three sends to one number already made through Redis,
 * then 1 or 3 replica processes (ioredis, node-redis) send to that number
 * every 100 ms for `--seconds` while their Redis answers at once, 100 ms
 * late (a delaying TCP proxy), 10–90 ms late (jitter), or not at all
 * (SIGSTOP of redis-server). The default `fleet.timeoutMs` (50 ms). Counted:
 * messages the service accepted for the number beyond the first three, per
 * replica, for `onStoreFailure: 'local'` (the default) and `'refuse'`.
 *
 *   node --import tsx bench/sms-limits.ts                # full → bench/results.sms-limits.json
 *   node --import tsx bench/sms-limits.ts --quick        # one short round → bench/.tmp/
 *   --seconds=N --rounds=N --modes=local  --label=before  # a build before `onStoreFailure` (src/ of an older
 *                                                         # commit checked out): results.sms-limits.before.json
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { startRedisServer } from '../test/helpers/redis-server.js';
import { type RedisCondition, runScenario } from '../test/limits/limits-scenario.js';
import { BENCH_DIR, QUICK } from './lib/config.js';
import { machine } from './lib/machine.js';

const flag = (name: string, fallback: number): number => {
  const arg = process.argv.find((value) => value.startsWith(`--${name}=`));
  return arg === undefined ? fallback : Number(arg.slice(name.length + 3));
};
const SECONDS = flag('seconds', QUICK ? 3 : 10);
const ROUNDS = flag('rounds', QUICK ? 1 : 2);
const CONDITIONS: readonly RedisCondition[] = ['none', 'slow', 'jitter', 'stall'];
const MODES_ALL = ['local', 'refuse'] as const;
const modesArg = process.argv.find((value) => value.startsWith('--modes='))?.slice('--modes='.length);
const MODES = MODES_ALL.filter((mode) => modesArg === undefined || modesArg.split(',').includes(mode));
const LABEL = process.argv.find((value) => value.startsWith('--label='))?.slice('--label='.length);
const REPLICAS = [1, 3] as const;

interface Row {
  condition: RedisCondition;
  mode: (typeof MODES_ALL)[number];
  replicas: number;
  /** Per round: extra messages per replica. */
  rounds: number[][];
  /** Per round: store failures counted by the replicas together. */
  storeFailures: number[];
}

const redis = await startRedisServer();
const rows: Row[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const condition of CONDITIONS) {
      for (const replicas of REPLICAS) {
        for (const mode of MODES) {
          const result = await runScenario({
            redis,
            replicas,
            condition,
            onStoreFailure: mode,
            durationMs: SECONDS * 1_000,
            intervalMs: 100,
          });
          let row = rows.find((r) => r.condition === condition && r.mode === mode && r.replicas === replicas);
          if (row === undefined) {
            row = { condition, mode, replicas, rounds: [], storeFailures: [] };
            rows.push(row);
          }
          row.rounds.push([...result.perReplica]);
          row.storeFailures.push(result.reports.reduce((sum, r) => sum + (r.stats.limits?.storeFailures ?? 0), 0));
          console.error(
            `round ${round + 1} ${condition.padEnd(6)} ${replicas} replica(s) ${mode.padEnd(6)}: extra per replica ${JSON.stringify(result.perReplica)} (service counted ${result.extra})`,
          );
        }
      }
    }
  }
} finally {
  await redis.stop();
}

const table = [
  '| Redis | replicas | onStoreFailure | extra sends per replica, each round | total extra (max) |',
  '|---|---|---|---|---|',
  ...rows.map((row) => {
    const totals = row.rounds.map((round) => round.reduce((a, b) => a + b, 0));
    return `| ${row.condition} | ${row.replicas} | ${row.mode} | ${row.rounds.map((round) => round.join(' / ')).join('; ')} | ${Math.max(...totals)} |`;
  }),
].join('\n');
console.log(table);
const name = `results.sms-limits${LABEL === undefined ? '' : `.${LABEL}`}.json`;
const file = QUICK ? `${BENCH_DIR}.tmp/${name}` : `${BENCH_DIR}${name}`;
await mkdir(dirname(file), { recursive: true });
await writeFile(
  file,
  `${JSON.stringify({ at: new Date().toISOString(), machine: machine(), seconds: SECONDS, rows }, null, 2)}\n`,
);
console.error(`written ${file}`);
