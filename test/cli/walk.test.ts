import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walk } from '../../src/cli/walk.js';

let dir: string;
const FILES = 600; // more than one listing batch (256 entries) between two turns of the event loop
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'walk-'));
  await mkdir(join(dir, 'sub'));
  for (let i = 0; i < FILES; i += 1) await writeFile(join(dir, i % 3 === 0 ? 'sub' : '', `f${i}`), '');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const name = (path: Buffer): string => path.toString().split('/').pop() as string;

describe('walk', () => {
  it('offers each file to claim once, yields only those not claimed, and pauses while listing', async () => {
    const offered: string[] = [];
    const yielded: string[] = [];
    let pauses = 0;
    for await (const path of walk([dir], {
      followSymlinks: false,
      onProblem: () => {},
      claim: (path) => {
        offered.push(name(path));
        return Number(name(path).slice(1)) % 2 === 0;
      },
      pause: async () => {
        pauses += 1;
      },
    })) {
      yielded.push(name(path));
    }
    const all = Array.from({ length: FILES }, (_, i) => `f${i}`);
    expect(offered.sort()).toEqual([...all].sort());
    expect(yielded.sort()).toEqual(all.filter((_, i) => i % 2 === 1).sort());
    expect(pauses).toBeGreaterThanOrEqual(1);
  });

  it('yields every file without claim, and reports a folder that cannot be listed', async () => {
    const problems: string[] = [];
    let count = 0;
    for await (const _ of walk([dir, join(dir, 'missing')], {
      followSymlinks: false,
      onProblem: (problem) => problems.push(`${problem.kind} ${problem.error?.code}`),
    })) {
      count += 1;
    }
    expect(count).toBe(FILES);
    expect(problems).toEqual(['unreadable ENOENT']);
  });
});
