/**
 * OTP pumping (issue 35): a burst of 500 sends to 500 distinct numbers of one
 * 7-digit prefix (`+86 170 00…`), never verified, interleaved with 50
 * ordinary users on distinct prefixes who each send and verify (one every 10
 * burst sends; the clock moves 100 ms per burst send and 20 s per user, by
 * `now`). Counted: what the sandbox (a real loopback server) accepted for
 * the burst, and the users whose code arrived and checked valid; beside it
 * the wall time and this process's CPU per verifier call (the sandbox runs
 * in this process: its CPU is included). Contenders, interleaved:
 *
 * - `perNumberOnly`: what a careful user writes without the guard: the
 *   verifier with `pumpingGuard: false` and the client's per-number limit
 *   (`limits.perRecipient.perHour: 5`), which a burst over distinct numbers never meets;
 * - `guard`: the verifier's defaults (guard in memory);
 * - `guardRedis`: the defaults over two replicas sharing a throw-away `redis-server` (when installed),
 *   `fleet.timeoutMs: 1000` (the default 50 ms fails sends on a machine as loaded as the one measured).
 *
 *   node --import tsx bench/otp-pumping.ts            # 5 rounds → bench/results.otp-pumping.json
 *   node --import tsx bench/otp-pumping.ts --quick    # 2 rounds → bench/.tmp/
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { OtpVerifier } from '../src/otp/otp-verifier.js';
import { startSandbox } from '../src/sandbox/start-sandbox.js';
import { SmsClient } from '../src/sms/sms-client.js';
import { connectRedis } from '../test/fleet/connect-redis.js';
import { hasRedisServer, startRedisServer } from '../test/helpers/redis-server.js';
import { manualClock, TEMPLATE } from '../test/otp/otp-helpers.js';
import { type PumpingTally, runPumping } from '../test/otp/pumping-scenario.js';
import { BENCH_DIR, QUICK } from './lib/config.js';
import { interleave, type Measured, measure } from './lib/interleave.js';
import { machine } from './lib/machine.js';
import { summarize } from './lib/stats.js';

const ROUNDS = QUICK ? 2 : 5;
/** Verifier calls per run: 500 burst sends, 50 user sends, 50 checks. */
const CALLS = 600;

type Run = PumpingTally & Measured;

const redisServer = hasRedisServer() ? await startRedisServer() : undefined;
const closers: Array<() => Promise<void>> = [];

async function run(kind: 'perNumberOnly' | 'guard' | 'guardRedis'): Promise<Run> {
  const sandbox = await startSandbox({ recordLimit: 10_000 });
  try {
    const clock = manualClock();
    const sms = new SmsClient({
      baseUrl: sandbox.smsUrl,
      accessKeyId: sandbox.accessKeyId,
      accessKeySecret: sandbox.accessKeySecret,
      ...(kind === 'perNumberOnly' && { limits: { perRecipient: { perHour: 5 } } }),
    });
    const base = { sms, templateCode: TEMPLATE, now: clock.now };
    let verifiers: OtpVerifier[];
    if (kind === 'perNumberOnly') verifiers = [new OtpVerifier({ ...base, pumpingGuard: false })];
    else if (kind === 'guard') verifiers = [new OtpVerifier(base)];
    else {
      const prefix = `otp-bench:${crypto.randomUUID()}`;
      verifiers = [];
      for (const lib of ['ioredis', 'node-redis'] as const) {
        const { redis, close } = await connectRedis(lib, redisServer?.url ?? '');
        closers.push(close);
        verifiers.push(
          new OtpVerifier({ ...base, secret: 'bench secret, at least thirty-two bytes', fleet: { redis, prefix } }),
        );
      }
    }
    let tally: PumpingTally | undefined;
    const measured = await measure(async () => {
      tally = await runPumping(verifiers, sandbox, clock.advance);
    });
    return { ...(tally as PumpingTally), ...measured };
  } finally {
    await sandbox.close();
  }
}

try {
  const contenders = {
    perNumberOnly: () => run('perNumberOnly'),
    guard: () => run('guard'),
    ...(redisServer !== undefined && { guardRedis: () => run('guardRedis') }),
  };
  const figures = await interleave<string, Run>(ROUNDS, contenders);
  const rows = Object.entries(figures).map(([name, runs]) => ({
    contender: name,
    burstDelivered: summarize(
      runs.map((r) => r.burstDelivered),
      0,
    ),
    usersVerified: summarize(
      runs.map((r) => r.usersVerified),
      0,
    ),
    wallMs: summarize(
      runs.map((r) => r.ms),
      0,
    ),
    cpuUsPerCall: summarize(
      runs.map((r) => r.cpuUs / CALLS),
      0,
    ),
    callsPerSecond: summarize(
      runs.map((r) => (CALLS * 1_000) / r.ms),
      0,
    ),
  }));
  for (const row of rows) {
    const f = (s: { median: number; min: number; max: number }) => `${s.median} (${s.min}–${s.max})`;
    console.log(
      `${row.contender.padEnd(14)} burst delivered ${f(row.burstDelivered)} of 500, users verified ${f(row.usersVerified)} of 50, ` +
        `${f(row.callsPerSecond)} calls/s, ${f(row.cpuUsPerCall)} µs CPU/call`,
    );
  }
  const file = QUICK ? `${BENCH_DIR}.tmp/results.otp-pumping.json` : `${BENCH_DIR}results.otp-pumping.json`;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), machine: machine(), rounds: ROUNDS, rows }, null, 2)}\n`,
  );
  console.log(`→ ${file}`);
} finally {
  for (const close of closers) await close();
  await redisServer?.stop();
}
