import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWalk, worthAThread } from '../../../src/cli/walk-thread/walk-off-thread.js';
import { identityOf } from '../../../src/cli/walk-thread/wire.js';
import { CLI_PATH } from '../build-cli.js';

// The thread file the test build of the CLI puts beside cli.mjs (built once by the global setup).
const THREAD = pathToFileURL(CLI_PATH.replace(/cli\.mjs$/, 'cli-walk-thread.mjs'));

let dir: string;
const FILES = 1500; // several batches (512 files each) and listings (256 entries)
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'walk-thread-'));
  await mkdir(join(dir, 'sub'));
  for (let i = 0; i < FILES; i += 1) await writeFile(join(dir, i % 3 === 0 ? 'sub' : '', `f${i}`), `${i}`);
  // A name that is not UTF-8, a link (not followed), a link back up (a loop under -L), a FIFO (special).
  await writeFile(Buffer.concat([Buffer.from(`${dir}/sub/`), Buffer.from([0x66, 0xff, 0xfe, 0x0a])]), 'odd');
  await symlink(join(dir, 'f1'), join(dir, 'link'));
  await symlink(dir, join(dir, 'sub', 'up'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Everything a walk tells its reader, in order: claimed and yielded files with identities, and problems. */
async function events(threadFile: URL | undefined, followSymlinks: boolean, limit?: number): Promise<string[]> {
  const seen: string[] = [];
  const walker = startWalk([dir], followSymlinks, { threadFile, ...(limit === undefined ? {} : { limit }) });
  for await (const path of walker.files({
    claim: (path, identity) => {
      seen.push(`claim ${path.toString('hex')} ${JSON.stringify(identity)}`);
      return path.length % 2 === 0;
    },
    onProblem: (problem) => seen.push(`problem ${problem.kind} ${problem.path.toString('hex')}`),
  })) {
    seen.push(`yield ${path.toString('hex')}`);
  }
  return seen;
}

describe('the inventory’s walk on a thread of its own', () => {
  it('tells what the walk on the main thread tells, in the same order, with each file’s identity', async () => {
    for (const followSymlinks of [false, true]) {
      const off = await events(THREAD, followSymlinks);
      const on = await events(undefined, followSymlinks);
      expect(off).toEqual(on);
      // The thread held to one message ahead of the reader (it waits, then goes on): the same again.
      expect(await events(THREAD, followSymlinks, 1)).toEqual(on);
      expect(off.filter((event) => event.startsWith('claim')).length).toBe(FILES + (followSymlinks ? 2 : 1));
      expect(off.some((event) => event.startsWith('problem special'))).toBe(true);
      expect(off.some((event) => event.startsWith(followSymlinks ? 'problem loop' : 'problem symlink'))).toBe(true);
    }
    // The identities are the files' own.
    const odd = Buffer.concat([Buffer.from(`${dir}/sub/`), Buffer.from([0x66, 0xff, 0xfe, 0x0a])]);
    const off = await events(THREAD, false);
    expect(off).toContain(`claim ${odd.toString('hex')} ${JSON.stringify(identityOf(odd))}`);
  });

  it('ends its thread when the reader stops early, and when the files are never taken', async () => {
    // The process's threads (Linux): a thread left running would stay among them.
    const threads = (): number => readdirSync('/proc/self/task').length;
    const before = threads();
    // One message ahead at most: the thread waits for the reader after its first batch, and stays waiting.
    const walker = startWalk([dir], false, { threadFile: THREAD, limit: 1 });
    let taken = 0;
    for await (const _ of walker.files({ claim: () => false, onProblem: () => {} })) {
      taken += 1;
      if (taken === 3) break;
    }
    expect(taken).toBe(3);
    expect(threads()).toBe(before);
    startWalk([dir], false, { threadFile: THREAD, limit: 1 }).close();
    await vi.waitFor(() => expect(threads()).toBe(before));
  });

  it('is worth a thread only beside an inventory with rows enough to read meanwhile', () => {
    const inventory = join(dir, 'inventory.db');
    expect(worthAThread(inventory)).toBe(false); // none yet: day one
    writeFileSync(inventory, 'small');
    expect(worthAThread(inventory)).toBe(false);
    truncateSync(inventory, 4 * 2 ** 20); // sparse: the size is what counts
    expect(worthAThread(inventory)).toBe(true);
    rmSync(inventory); // the walked tree stays as the other tests walk it
  });
});
