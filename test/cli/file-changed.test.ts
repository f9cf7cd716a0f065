import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readWhileChanged } from '../helpers/mutate-while-read.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { collect, parseNdjson, startCli } from './run-cli.js';

const dir = realpathSync(useTempDir('cli-file-changed-'));

describe('scan: a file changed while it is read', () => {
  it.each(['truncate', 'append', 'rewrite'] as const)(
    'is a review row FILE_CHANGED when another process does %s',
    async (mode) => {
      const run = await readWhileChanged(dir, mode, mode, (path) => {
        const child = startCli(['scan', '--sandbox', '-f', 'ndjson', path]);
        return { pid: child.pid as number, settled: collect(child) };
      });
      const rows = parseNdjson(run.stdout);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ decision: 'review', verdict: 'error', error: 'FILE_CHANGED' });
      expect(rows[0]?.sha256).toBeUndefined();
      expect(String(rows[0]?.detail)).toMatch(/file changed as we read it/);
      expect(run.code).toBe(2);
    },
  );
});
