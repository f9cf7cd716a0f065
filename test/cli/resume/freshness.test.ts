import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFor, type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { parseNdjson, runCli } from '../run-cli.js';

/*
 * `lookup --resume STATE --max-age D` through the real binary: a state
 * written two days ago (its answers' times moved back two days, its checksum
 * written again: a real old file, no clock hook in the CLI), five lines
 * appended, and a service that now flags a hash it called clean.
 */
const dir = useTempDir('hashscan-sms-freshness-');
const DAY = 86_400;
const LINES = 200;
const payload = (n: number): string => `stored file ${n}`;
const hashOf = (n: number): string => createHash('sha256').update(payload(n)).digest('hex');
/** Clean when first asked, flagged by the service two days later. */
const TURNED = 7;

let before: Sandbox;
let now: Sandbox;

beforeAll(async () => {
  before = await startSandbox({ hashScan: { records: [] } });
  now = await startSandbox({ hashScan: { records: [recordFor(payload(TURNED), { source: 'late-av' })] } });
});

afterAll(async () => {
  await before.close();
  await now.close();
});

const envOf = (sandbox: Sandbox): Record<string, string> => ({
  HASHSCAN_BASE_URL: sandbox.hashScanUrl,
  HASHSCAN_API_KEY: sandbox.apiKey,
});

/** Moves every recorded answer `seconds` back in time, as if the state had been written then. */
function age(state: string, seconds: number): void {
  const [body] = readFileSync(state, 'utf8').split('\n');
  const value = JSON.parse(body as string) as { answers: [number, ...unknown[]][] };
  value.answers = value.answers.map(([at, ...lines]) => [at - seconds, ...lines]);
  const text = JSON.stringify(value);
  writeFileSync(state, `${text}\nsha256 ${createHash('sha256').update(text).digest('hex')}\n`);
  // A state closed cleanly leaves a journal of its header only: nothing in it to age.
  expect(readFileSync(`${state}.journal`, 'utf8')).toMatch(/^hashscan-sms-journal [0-9a-f]{32}\n$/);
}

/** Runs `lookup` against `sandbox`; how many hashes it asked, what it printed, how it ended. */
async function lookup(sandbox: Sandbox, args: readonly string[]) {
  const asked = sandbox.requests.length;
  const run = await runCli(['lookup', '-f', 'ndjson', ...args], { env: envOf(sandbox) });
  return {
    ...run,
    asked: sandbox.requests.slice(asked).map((request) => request.params.hash),
    rows: parseNdjson(run.stdout),
  };
}

describe('lookup --resume STATE --max-age D', { timeout: 60_000 }, () => {
  it('asks again what was answered longer ago than D, never printing or counting its old answer', async () => {
    const input = join(dir, 'hashes.txt');
    const state = join(dir, 'run.state');
    writeFileSync(input, Array.from({ length: LINES }, (_, i) => `${hashOf(i)}\n`).join(''));
    const args = ['--input', input, '--resume', state];

    const first = await lookup(before, args);
    expect(first.code).toBe(0);
    expect(first.asked).toHaveLength(LINES);

    age(state, 2 * DAY);
    appendFileSync(input, Array.from({ length: 5 }, (_, i) => `${hashOf(LINES + i)}\n`).join(''));

    // Answers two days old are fresh enough for --max-age 3d: only the five new lines are asked.
    const lenient = await lookup(now, [...args, '--max-age', '3d']);
    expect(lenient.asked.sort()).toEqual(Array.from({ length: 5 }, (_, i) => hashOf(LINES + i)).sort());
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain(`${LINES + 5} hashes: 0 block, 0 review, ${LINES + 5} allow`);

    // With --max-age 1d the two-day-old answers are asked again, the five answered just now are not.
    const strict = await lookup(now, [...args, '--max-age', '1d']);
    expect(strict.asked).toHaveLength(LINES);
    expect(new Set(strict.asked)).toEqual(new Set(Array.from({ length: LINES }, (_, i) => hashOf(i))));
    expect(strict.rows).toHaveLength(LINES);
    expect(strict.rows.filter((row) => row.decision === 'block')).toEqual([
      expect.objectContaining({ line: TURNED + 1, hash: hashOf(TURNED), verdict: 'malicious', source: 'late-av' }),
    ]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(
      `--resume ${state}: ${LINES} answers older than 1d00h (the oldest 2d00h old) asked again`,
    );
    expect(strict.stderr).toContain(`${LINES + 5} hashes: 1 block, 0 review, ${LINES + 4} allow`);

    // A rerun at once asks nothing, prints nothing, and still counts the block it recorded.
    const again = await lookup(now, [...args, '--max-age', '1d']);
    expect(again.asked).toEqual([]);
    expect(again.stdout).toBe('');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${LINES + 5} hashes: 1 block, 0 review, ${LINES + 4} allow`);
  });

  it('without --max-age asks again answers older than half a day, as scan --inventory does', async () => {
    const input = join(dir, 'default.txt');
    const state = join(dir, 'default.state');
    writeFileSync(input, `${hashOf(1)}\n${hashOf(TURNED)}\n`);
    const args = ['--input', input, '--resume', state];
    expect((await lookup(before, args)).code).toBe(0);
    age(state, 11 * 3_600);
    const recent = await lookup(now, args);
    expect([recent.asked, recent.code, recent.stdout]).toEqual([[], 0, '']);
    age(state, 3_600 + 60);
    const old = await lookup(now, args);
    expect(old.asked.sort()).toEqual([hashOf(1), hashOf(TURNED)].sort());
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('2 answers older than 12h00m (the oldest 12h01m old) asked again');
  });

  it('a usage error of the connection creates no state file: no API key, a bad --timeout', async () => {
    const input = join(dir, 'unkeyed.txt');
    const state = join(dir, 'unkeyed.state');
    writeFileSync(input, `${hashOf(1)}\n`);
    const noKey = await runCli(['lookup', '--input', input, '--resume', state], {
      env: { HASHSCAN_BASE_URL: now.hashScanUrl },
    });
    expect(noKey.code).toBe(64);
    expect(noKey.stderr).toContain('missing API key');
    expect(existsSync(state)).toBe(false);
    const badTimeout = await runCli(['lookup', '--input', input, '--resume', state, '--timeout', 'soon'], {
      env: envOf(now),
    });
    expect(badTimeout.code).toBe(64);
    expect(badTimeout.stderr).toContain('--timeout must be');
    expect(existsSync(state)).toBe(false);
    expect(existsSync(`${state}.journal`)).toBe(false);
  });

  it('refuses a bad --max-age, --max-age without a state, and a state of the format before answer times', async () => {
    const input = join(dir, 'refused.txt');
    const state = join(dir, 'refused.state');
    writeFileSync(input, `${hashOf(1)}\n`);
    for (const [flags, message] of [
      [['--resume', state, '--max-age', '0s'], '--max-age must be a duration from 1s to 3650d'],
      [['--resume', state, '--max-age', '2w'], 'got "2w"'],
      [['--max-age', '1d'], '--max-age applies to --resume STATE or --queue URL'],
      [['--redis-wait', '5s'], '--redis-wait applies to --queue URL'],
      [['--chunk-size', '10'], '--chunk-size applies to --queue URL'],
      [['--run-id', 'nightly'], '--run-id applies to --queue URL'],
    ] as const) {
      const run = await lookup(now, ['--input', input, ...flags]);
      expect(run.code).toBe(64);
      expect(run.stderr).toContain(message);
      expect(run.asked).toEqual([]);
    }
    // A state file as the version before this one wrote it: settled lines and counts, no times.
    const body = JSON.stringify({
      format: 'hashscan-sms-resume',
      version: 2,
      id: 'a'.repeat(32),
      previous: null,
      input: { source: 'file', path: input },
      blockLines: 1024,
      blocks: [
        [
          1,
          createHash('sha256')
            .update(`${hashOf(1)}\n`)
            .digest('hex'),
        ],
      ],
      counts: { allow: 1, block: 0, review: 0 },
      settled: [[1, 1]],
    });
    writeFileSync(state, `${body}\nsha256 ${createHash('sha256').update(body).digest('hex')}\n`);
    const old = await lookup(now, ['--input', input, '--resume', state]);
    expect(old.code).toBe(64);
    expect(old.stderr).toContain('written by an earlier version, without the time of each answer');
    expect(old.asked).toEqual([]);
  });
});
