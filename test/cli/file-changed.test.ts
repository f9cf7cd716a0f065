import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Mutation, sparseFile, startMutator } from '../helpers/mutate-while-read.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { type CliRun, collect, parseNdjson, startCli } from './run-cli.js';

const dir = realpathSync(useTempDir('cli-file-changed-'));
/** Large enough that the CLI's hashing thread is still reading when the second process acts. */
const SIZE = 128 * 1024 * 1024;

/** `scan` of a fresh big file, changed by a second process once the CLI is reading it (again if it acted too late). */
async function scanWhileChanged(mode: Mutation): Promise<CliRun> {
  for (let attempt = 1; ; attempt += 1) {
    const path = join(dir, `${mode}-${attempt}.bin`);
    sparseFile(path, SIZE);
    const mutator = await startMutator(path, mode);
    const child = startCli(['scan', '--sandbox', '-f', 'ndjson', path]);
    mutator.watch(child.pid as number);
    const run = await collect(child);
    const did = await mutator.result;
    if (did.startsWith('changed at ')) return run;
    if ((did !== 'missed' && did !== 'late') || attempt === 5)
      throw new Error(`the second process did not change the file: ${did}`);
  }
}

describe('scan: a file changed while it is read', () => {
  it.each(['truncate', 'append', 'rewrite'] as const)(
    'is a review row FILE_CHANGED when another process does %s',
    async (mode) => {
      const run = await scanWhileChanged(mode);
      const rows = parseNdjson(run.stdout);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ decision: 'review', verdict: 'error', error: 'FILE_CHANGED' });
      expect(rows[0]?.sha256).toBeUndefined();
      expect(String(rows[0]?.detail)).toMatch(/file changed as we read it/);
      expect(run.code).toBe(2);
    },
  );
});
