import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.js';
import { CLI_PATH } from './build-cli.js';
import { type CliRun, cliEnv, collect, parseNdjson, startCli } from './run-cli.js';

const root = useTempDir('cli-lookup-lines-');
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
const H = createHash('sha256').update('clean').digest('hex');
const H2 = createHash('md5').update('other').digest('hex');

/** Names sha256sum escapes (a backslash, a newline, a CR) and one that is not UTF-8; the last holds EICAR. */
const NAMES = [
  Buffer.from('back\\slash'),
  Buffer.from('new\nline'),
  Buffer.from('cr\rname'),
  Buffer.concat([Buffer.from('latin1-'), Buffer.of(0xe9)]),
  Buffer.from('eicar.com'),
];

function lookup(args: readonly string[], input: string | Buffer): Promise<CliRun> {
  return collect(startCli(['lookup', '--sandbox', '-f', 'ndjson', ...args]), input);
}

/** `sha256sum [flags] *` in `dir`, piped into `lookup` in a real shell pipeline. */
function sumPipeline(dir: string, sumFlags: string, lookupFlags: string): Promise<CliRun> {
  const script = `cd "$1" && sha256sum ${sumFlags} -- * | "$2" "$3" lookup --sandbox -f ndjson ${lookupFlags}`;
  return collect(spawn('sh', ['-c', script, 'sh', dir, process.execPath, CLI_PATH], { env: cliEnv() }));
}

function nameOf(row: Record<string, unknown>): Buffer {
  return row.nameBase64 === undefined ? Buffer.from(String(row.name)) : Buffer.from(String(row.nameBase64), 'base64');
}

describe('lookup: sha256sum lines, -0, and lines that are not one hash', () => {
  const dir = join(root, 'files');
  mkdirSync(dir);
  NAMES.forEach((name, i) => {
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), name]), i === NAMES.length - 1 ? EICAR : `file ${i}`);
  });

  it.each([
    ['escaped sha256sum lines', '', ''],
    ['sha256sum -z and lookup -0', '-z', '-0'],
  ])('reads back every odd name exactly: %s', async (_, sumFlags, lookupFlags) => {
    const run = await sumPipeline(dir, sumFlags, lookupFlags);
    const rows = parseNdjson(run.stdout);
    expect(rows.map(nameOf).sort(Buffer.compare)).toEqual([...NAMES].sort(Buffer.compare));
    expect(rows.filter((row) => row.decision === 'review')).toEqual([]);
    expect(rows.find((row) => nameOf(row).equals(Buffer.from('eicar.com')))).toMatchObject({ decision: 'block' });
    expect(run.code).toBe(1);
  });

  it.each([
    [`${H} ${H2}`, 'SECOND_HASH'],
    [`${H}\t${H2}`, 'SECOND_HASH'],
    [`${H}\r${H2}`, 'CARRIAGE_RETURN'],
    [`${H}  name\rwith-cr`, 'CARRIAGE_RETURN'],
    [`\\${H}  bad\\escape`, 'BAD_ESCAPE'],
  ])('never exits 0 on %j: a review row %s naming the line', async (line, code) => {
    const run = await lookup([], `${H}  fine.txt\n${line}\n`);
    const rows = parseNdjson(run.stdout);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ line: 1, decision: 'allow' });
    expect(rows[1]).toMatchObject({ line: 2, hash: H, verdict: 'error', decision: 'review', error: code });
    expect(String(rows[1]?.detail)).toContain('line 2 ');
    expect(run.code).toBe(2);
  });

  it('says so on stderr when the input holds no hashes, and exits 0', async () => {
    const run = await lookup(['-q'], '\n# nothing here\n\n');
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('the input held no hashes');
    expect(run.code).toBe(0);
  });

  it('lookup --queue refuses an input with a second hash on a line before anything is queued', async () => {
    const run = await collect(
      startCli(['lookup', '--queue', 'redis://127.0.0.1:1', '--sandbox']),
      `${H}\n${H} ${H2}\n`,
    );
    expect(run.code).toBe(64);
    expect(run.stderr).toContain('line 2 holds a second hash');
  });
});
