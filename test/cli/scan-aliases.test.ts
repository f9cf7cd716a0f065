import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli } from './run-cli.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cli-alias-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('scan -L: a directory met twice', { timeout: 30_000 }, () => {
  it('through a link that is not an ancestor is an alias, "already scanned via …"; a link to an ancestor is a loop', async () => {
    // As on Debian: /usr/share/doc/libtsan2 -> gcc-12-base; and a real loop back to the top.
    const doc = join(root, 'doc');
    await mkdir(join(doc, 'gcc-12-base'), { recursive: true });
    await writeFile(join(doc, 'gcc-12-base', 'copyright'), 'the same file, by two names');
    await symlink('gcc-12-base', join(doc, 'libtsan2'));
    await symlink('..', join(doc, 'gcc-12-base', 'up'));

    const run = await runCli(['scan', '--sandbox', '-f', 'ndjson', '-L', doc]);
    expect(run.code).toBe(0);
    // Its one file, once, under whichever name the listing gave first.
    const paths = parseNdjson(run.stdout).map((row) => String(row.path));
    expect(paths).toHaveLength(1);
    const first = paths[0]?.includes('libtsan2') ? 'libtsan2' : 'gcc-12-base';
    const second = first === 'libtsan2' ? 'gcc-12-base' : 'libtsan2';
    expect(run.stderr).toContain(`skipped ${join(doc, second)}: already scanned via ${join(doc, first)}\n`);
    expect(run.stderr).not.toMatch(new RegExp(`${second}: directory already visited`));
    // `up` leads to a directory the walk is inside of: a loop, said once.
    const loops = run.stderr.match(/: directory already visited \(symbolic link loop\)/g) ?? [];
    expect(loops).toHaveLength(1);
    expect(run.stderr).toMatch(/skipped .*\/up: directory already visited \(symbolic link loop\)/);
  });
});
