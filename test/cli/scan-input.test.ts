import { execFileSync, spawn } from 'node:child_process';
import { linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { CLI_PATH } from './build-cli.js';
import { type CliRun, cliEnv, collect, parseNdjson, startCli } from './run-cli.js';

const root = useTempDir('cli-scan-input-');
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

/** `scan` with `stdin` as its standard input. */
function scan(args: readonly string[], stdin: Buffer | string = ''): Promise<CliRun> {
  return collect(startCli(['scan', '--sandbox', '-f', 'ndjson', ...args]), stdin);
}

/** A row's exact path: its bytes from `pathBase64` when the name is not UTF-8, else its text. */
function pathOf(row: Record<string, unknown>): Buffer {
  return row.pathBase64 === undefined ? Buffer.from(String(row.path)) : Buffer.from(String(row.pathBase64), 'base64');
}

/** Names `find` and a shell would mangle: a newline, a backslash, a CR (inside and at the end), bytes not UTF-8. */
const ODD = [
  Buffer.from('line\nbreak.txt'),
  Buffer.from('back\\slash\\n.txt'),
  Buffer.from('carriage\rreturn.txt'),
  Buffer.from('ends-with-cr\r'),
  Buffer.concat([Buffer.from('latin1-'), Buffer.of(0xe9, 0xff), Buffer.from('.bin')]),
];

describe('scan --input / -0: byte-safe path lists', () => {
  it('reports every one of 30,050 paths from find -print0, each once', { timeout: 120_000 }, async () => {
    const tree = join(root, 'many');
    const contents = join(root, 'contents');
    mkdirSync(contents);
    // Ten contents in all, hard-linked under 30 050 names: the lookups are few, the rows are what is checked.
    for (let c = 0; c < 10; c += 1) writeFileSync(join(contents, `c${c}`), `content ${c}`);
    for (let d = 0; d < 50; d += 1) {
      const dir = join(tree, `d${d}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 601; f += 1) linkSync(join(contents, `c${f % 10}`), join(dir, `f${f}`));
    }
    const listed = execFileSync('find', [tree, '-type', 'f', '-print0'], { maxBuffer: 64 * 1024 * 1024 });
    const expected = listed.toString('latin1').split('\0').filter(Boolean).sort();
    expect(expected).toHaveLength(30_050);
    // A real pipeline, as an operator types it.
    const pipeline = 'find "$1" -type f -print0 | "$2" "$3" scan --sandbox -f ndjson -q -0';
    const shell = spawn('sh', ['-c', pipeline, 'sh', tree, process.execPath, CLI_PATH], { env: cliEnv() });
    const run = await collect(shell);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const rows = parseNdjson(run.stdout);
    expect(rows.map((row) => String(row.path)).sort()).toEqual(expected);
    expect(rows.every((row) => row.decision === 'allow')).toBe(true);
    rmSync(tree, { recursive: true });
  });

  it.each([
    ['NUL-separated (-0)', '\0', ['-0']],
    ['newline-separated', '\n', []],
  ])('keeps odd names exact, %s, and a missing or over-long entry is its own row', async (_, separator, flags) => {
    const dir = join(root, `odd-${flags.length}`);
    mkdirSync(dir);
    const dirBytes = Buffer.from(`${dir}/`);
    const names = separator === '\n' ? ODD.filter((name) => !name.includes('\n')) : ODD;
    const paths = names.map((name) => Buffer.concat([dirBytes, name]));
    for (const [i, path] of paths.entries()) writeFileSync(path, i === 0 ? EICAR : `odd ${i}`);
    const missing = Buffer.from(join(dir, 'missing.txt'));
    const overlong = Buffer.alloc(70 * 1024, 'a');
    const sep = Buffer.from(separator);
    const list = Buffer.concat([...paths, missing, overlong].flatMap((path) => [path, sep]));
    const listFile = join(root, `list-${flags.length}`);
    writeFileSync(listFile, list);

    const run = await scan([...flags, '--input', listFile]);
    const rows = parseNdjson(run.stdout);
    expect(rows).toHaveLength(paths.length + 2);
    for (const [i, path] of paths.entries()) {
      const row = rows.find((candidate) => pathOf(candidate).equals(path));
      expect(row, path.toString('latin1')).toMatchObject(i === 0 ? { decision: 'block' } : { decision: 'allow' });
    }
    expect(rows.find((row) => pathOf(row).equals(missing))).toMatchObject({ decision: 'review', error: 'ENOENT' });
    expect(rows.find((row) => row.error === 'NAME_TOO_LONG')).toMatchObject({ decision: 'review' });
    expect(run.code).toBe(1);
  });

  it('says so on stderr when the list names no path, and exits 0', async () => {
    const run = await scan(['--input', '-', '-q'], '\n\n');
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('stdin named no paths: nothing scanned');
    expect(run.code).toBe(0);
  });

  it('refuses paths both as arguments and in a list, and a list that cannot be read', async () => {
    const both = await scan(['-0', root]);
    expect(both.code).toBe(64);
    expect(both.stderr).toContain('not both');
    const unreadable = await scan(['--input', join(root, 'no-such-list')]);
    expect(unreadable.code).toBe(64);
    expect(unreadable.stderr).toContain('cannot read --input');
  });

  it('refuses -0 without --input when stdin is a terminal, rather than wait for typing', async () => {
    let err = '';
    const sink = (write: (text: string) => void) =>
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          write(chunk.toString());
          callback();
        },
      });
    const stdin = Object.assign(Readable.from([]), { isTTY: true });
    const io = { out: sink(() => undefined), err: sink((text) => (err += text)), stdin, env: {} };
    expect(await main(['scan', '--sandbox', '-0'], io, new AbortController().signal)).toBe(64);
    expect(err).toContain('-0 reads the list from stdin');
  });
});
