import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTerminal, runCli } from './run-cli.js';

/** SHA-256 of `a`. */
const DIGEST = 'ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-wide-'));
  await mkdir(join(dir, 'files'));
  await writeFile(join(dir, 'files', 'a.txt'), 'a');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const terminal = (args: readonly string[]) =>
  inTerminal(['scan', '--sandbox', ...args, join(dir, 'files')], { env: {}, columns: 200, encoding: 'utf8' });

describe("the table's digests", { timeout: 30_000 }, () => {
  it('are cut to their column on a terminal, whole with --wide', async () => {
    const cut = await terminal([]);
    expect(cut.code).toBe(0);
    expect(cut.screen).toContain(`${DIGEST.slice(0, 15)}…`);
    expect(cut.screen).not.toContain(DIGEST);
    const wide = await terminal(['--wide']);
    expect(wide.code).toBe(0);
    expect(wide.screen).toMatch(new RegExp(`allow\\s.*not_detected\\s+${DIGEST}\\s+1\\s`));
  });

  it('are whole when stdout is not a terminal (a pipe, a file)', async () => {
    const piped = await runCli(['scan', '--sandbox', join(dir, 'files')]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(new RegExp(`not_detected\\s+${DIGEST}\\s+1\\s`));
  });
});
