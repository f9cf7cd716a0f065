import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EICAR_RECORD } from '../../src/sandbox/index.js';
import { collect, parseNdjson, startCli } from './run-cli.js';

const BOM = Buffer.of(0xef, 0xbb, 0xbf);
const CLEAN = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** A list as Windows writes it: a byte order mark, CRLF. */
const WINDOWS_LIST = Buffer.concat([BOM, Buffer.from(`${EICAR_RECORD.sha256}\r\n${CLEAN}\r\n`)]);

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-bom-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lookup = (args: readonly string[], input?: Buffer) =>
  collect(startCli(['lookup', '--sandbox', '-f', 'ndjson', ...args]), input);

describe('a byte order mark at the start of a hash list', { timeout: 30_000 }, () => {
  it('UTF-8 on stdin: dropped, line 1 is looked up (block, exit 1)', async () => {
    const run = await lookup([], WINDOWS_LIST);
    expect(run.stderr).toContain('2 hashes: 1 block, 0 review, 1 allow');
    expect(run.code).toBe(1);
    const rows = parseNdjson(run.stdout).sort((a, b) => Number(a.line) - Number(b.line));
    expect(rows.map((row) => [row.line, row.hash, row.decision])).toEqual([
      [1, EICAR_RECORD.sha256, 'block'],
      [2, CLEAN, 'allow'],
    ]);
  });

  it('UTF-8 in --input FILE, with --resume: the same, and the rerun resumes it', async () => {
    const file = join(dir, 'windows.txt');
    await writeFile(file, WINDOWS_LIST);
    const state = join(dir, 'windows.state');
    const first = await lookup(['--input', file, '--resume', state]);
    expect(first.code).toBe(1);
    expect(parseNdjson(first.stdout).find((row) => row.line === 1)?.decision).toBe('block');
    const again = await lookup(['--input', file, '--resume', state]);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
  });

  it.each([
    ['UTF-16LE', Buffer.from(`\ufeff${EICAR_RECORD.sha256}\r\n`, 'utf16le')],
    ['UTF-16BE', Buffer.from(`\ufeff${EICAR_RECORD.sha256}\r\n`, 'utf16le').swap16()],
  ])('%s: refused as a whole with a clear message (exit 64), on stdin and in --input FILE', async (encoding, bytes) => {
    const file = join(dir, `${encoding}.txt`);
    await writeFile(file, bytes);
    for (const [args, input] of [
      [[], bytes],
      [['--input', file], undefined],
    ] as const) {
      const run = await lookup(args, input);
      expect(run.code).toBe(64);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`is ${encoding} (it starts with that byte order mark)`);
      expect(run.stderr).toContain('iconv -f UTF-16 -t UTF-8');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
