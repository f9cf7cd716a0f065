import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EICAR_RECORD, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { savedAnswers } from './resume/saved-state.js';
import { csvRecords, parseNdjson, runCli, startCli } from './run-cli.js';
import { runMain } from './run-main.js';

const MODES = [
  { mode: 'binary', run: runCli },
  { mode: 'in-process', run: runMain },
];

const hashOf = (n: number): string => createHash('sha256').update(`stored file ${n}`).digest('hex');
const CLEAN = hashOf(0);

let dir: string;
let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-lookup-'));
  sandbox = await startSandbox();
  env = { HASHSCAN_BASE_URL: sandbox.hashScanUrl, HASHSCAN_API_KEY: sandbox.apiKey };
});

afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe.each(MODES)('hashscan-sms lookup ($mode)', { timeout: 30_000 }, ({ mode, run: cli }) => {
  it('reads stdin, skips blanks and comments, reports invalid lines with their line number', async () => {
    const input = [
      '# stored hashes',
      '',
      EICAR_RECORD.md5.toUpperCase(),
      '  ',
      'not-a-hash',
      `${CLEAN}  uploads/a.pdf`,
      '',
    ].join('\n');
    const run = await cli(['lookup', '-f', 'ndjson'], { env, input });
    expect(run.code).toBe(1);
    const rows = parseNdjson(run.stdout).sort((a, b) => Number(a.line) - Number(b.line));
    expect(rows).toEqual([
      expect.objectContaining({ line: 3, verdict: 'malicious', decision: 'block', source: 'eicar' }),
      expect.objectContaining({
        line: 5,
        hash: 'not-a-hash',
        verdict: 'error',
        decision: 'review',
        error: 'INVALID_HASH',
      }),
      expect.objectContaining({
        line: 6,
        hash: CLEAN,
        name: 'uploads/a.pdf',
        verdict: 'not_detected',
        decision: 'allow',
      }),
    ]);
    // Every row says when it was answered; a hit says when the service saw the file, as it sent it.
    for (const row of rows) expect(row.checkedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(rows[0]).toMatchObject({ firstSeen: EICAR_RECORD.firstSeen, lastSeen: EICAR_RECORD.lastSeen });
    expect(Object.keys(rows[0] ?? {}).slice(-3)).toEqual(['checkedAt', 'firstSeen', 'lastSeen']);
  });

  it('takes hashes as arguments or --input FILE (CSV parsed back), exit 0 when all are allowed', async () => {
    const args = await cli(['lookup', '-f', 'csv', CLEAN, hashOf(1)], { env });
    expect(args.code).toBe(0);
    expect(csvRecords(args.stdout).map((record) => record.decision)).toEqual(['allow', 'allow']);
    const file = join(dir, 'hashes.txt');
    await writeFile(file, `${CLEAN}\r\n${hashOf(2)}\r\n`);
    const fromFile = await cli(['lookup', '-f', 'csv', '--input', file], { env });
    expect(fromFile.code).toBe(0);
    expect(
      csvRecords(fromFile.stdout)
        .map((record) => Number(record.line))
        .sort(),
    ).toEqual([1, 2]);
    const both = await cli(['lookup', '--input', file, CLEAN], { env });
    expect(both.code).toBe(64);
  });

  it.runIf(mode === 'binary')('resumes after kill -9 without asking again for what was answered', async () => {
    // 20 hashes the service answers, then 20 it never answers: the run stalls with those in flight.
    const answered = Array.from({ length: 20 }, (_, i) => hashOf(100 + i));
    const stalled = Array.from({ length: 20 }, (_, i) => hashOf(200 + i));
    const stalling = await startSandbox({
      hashScan: { faults: Object.fromEntries(stalled.map((hash) => [hash, 'timeout'])) },
    });
    const input = join(dir, 'resume.txt');
    const state = join(dir, 'resume.state');
    await writeFile(input, `${[...answered, ...stalled].join('\n')}\n`);
    const args = ['lookup', '-f', 'ndjson', '--concurrency', '4', '--input', input, '--resume', state];

    const first = startCli(args, {
      env: { HASHSCAN_BASE_URL: stalling.hashScanUrl, HASHSCAN_API_KEY: stalling.apiKey },
    });
    let firstOut = '';
    first.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      firstOut += chunk;
    });
    const exited = new Promise((resolve) => first.once('close', resolve));
    await expect.poll(() => parseNdjson(firstOut).length, { timeout: 20_000, interval: 50 }).toBe(20);
    // Let the journal write that follows the last printed result land, then kill without warning.
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.kill('SIGKILL');
    await exited;
    await stalling.close();
    const answeredFirst = new Set(
      stalling.requests.filter((request) => request.status !== undefined).map((request) => request.params.hash),
    );
    expect([...answeredFirst].sort()).toEqual([...answered].sort());

    const fresh = await startSandbox();
    const second = await cli(args, {
      env: { HASHSCAN_BASE_URL: fresh.hashScanUrl, HASHSCAN_API_KEY: fresh.apiKey },
    });
    await fresh.close();
    expect(second.code).toBe(0);
    const askedSecond = fresh.requests.map((request) => request.params.hash);
    expect(askedSecond.filter((hash) => answeredFirst.has(hash))).toEqual([]);
    expect(askedSecond.sort()).toEqual([...stalled].sort());
    const lines = [...parseNdjson(firstOut), ...parseNdjson(second.stdout)]
      .map((row) => Number(row.line))
      .sort((a, b) => a - b);
    expect(lines).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(second.stderr).toContain('40 hashes: 0 block, 0 review, 40 allow');
    expect(await savedAnswers(state)).toEqual({ settled: [[1, 40]], counts: { allow: 40, block: 0, review: 0 } });

    // A third run has nothing left to ask.
    const third = await cli(args, { env });
    expect(third.code).toBe(0);
    expect(third.stdout).toBe('');
  });

  it('asks again on resume for a lookup that failed, and refuses a state file of another input', async () => {
    const input = join(dir, `failing-${mode}.txt`);
    const state = join(dir, `failing-${mode}.state`);
    const failing = 'fa170000000000000000000000000001'; // the sandbox answers 503
    await writeFile(input, `${CLEAN}\n${failing}\n`);
    const args = ['lookup', '-f', 'ndjson', '--retries', '0', '--input', input, '--resume', state];
    const first = await cli(args, { env });
    expect(first.code).toBe(2);
    const before = sandbox.requests.filter((request) => request.params.hash === failing).length;
    const second = await cli(args, { env });
    expect(second.code).toBe(2);
    expect(parseNdjson(second.stdout)).toEqual([expect.objectContaining({ line: 2, verdict: 'error' })]);
    expect(sandbox.requests.filter((request) => request.params.hash === failing).length).toBe(before + 1);
    expect(sandbox.requests.filter((request) => request.params.hash === CLEAN).length).toBeGreaterThan(0);

    await writeFile(input, `${CLEAN}\n`);
    const other = await cli(args, { env });
    expect(other.code).toBe(64);
    expect(other.stderr).toContain('was written for another input');
  });

  it('streams ten thousand lines through a bounded pipeline', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => hashOf(1000 + (i % 2500))).join('\n');
    const before = sandbox.requests.length;
    const run = await cli(['lookup', '-f', 'ndjson', '-q'], { env, input: many });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(parseNdjson(run.stdout)).toHaveLength(10_000);
    // 2 500 distinct hashes: repeats are answered from the cache or the lookup already in flight.
    expect(sandbox.requests.length - before).toBe(2500);
  });
});
