import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashFilesOffThread } from '../../src/cli/hashing/hash-off-thread.js';
import { type HashedFile, hashFiles, type UnreadableFile } from '../../src/hashing/index.js';
import { CLI_PATH } from './build-cli.js';

// The thread file the test build of the CLI puts beside cli.mjs (built once by the global setup).
const THREAD = pathToFileURL(CLI_PATH.replace(/cli\.mjs$/, 'cli-hash-thread.mjs'));

let dir: string;
const paths: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'off-thread-'));
  for (let i = 0; i < 3000; i += 1) {
    const path = join(dir, `f${i}`);
    if (i % 500 !== 7) await writeFile(path, `content ${i % 1000}`);
    paths.push(path); // every 500th (from 7) is missing: reported, never fatal
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Names as the CLI's walk gives them: bytes. */
async function* walk(list: readonly string[]): AsyncGenerator<Buffer> {
  for (const path of list) yield Buffer.from(path);
}

describe('hashing on a thread of its own (scan)', () => {
  it('yields what hashFiles yields: every path once, digests and fs error codes included', async () => {
    const signal = new AbortController().signal;
    type Result = HashedFile<'sha256' | 'md5', string> | UnreadableFile;
    const off: Result[] = [];
    for await (const file of hashFilesOffThread(walk(paths), {
      algorithms: ['sha256', 'md5'],
      concurrency: 8,
      signal,
      threadFile: THREAD,
    })) {
      off.push({ ...file, path: file.path.toString() } as Result);
    }
    const here: Result[] = [];
    for await (const file of hashFiles(paths, { algorithms: ['sha256', 'md5'] })) here.push(file);
    const view = (files: readonly Result[]) =>
      files
        .map((file) => ({
          index: file.index,
          path: file.path,
          ...(file.error === undefined ? { size: file.size, digests: file.digests } : { code: file.error.code }),
        }))
        .sort((a, b) => a.index - b.index);
    expect(off).toHaveLength(3000);
    expect(view(off)).toEqual(view(here));
    expect(off.filter((file) => file.error !== undefined).map((file) => file.error?.code)).toEqual(
      Array(6).fill('ENOENT'),
    );
  });

  it('stops taking paths once aborted, and ends the thread when the consumer leaves early', async () => {
    const controller = new AbortController();
    let pulled = 0;
    async function* counted(): AsyncGenerator<Buffer> {
      for (const path of paths) {
        pulled += 1;
        yield Buffer.from(path);
      }
    }
    const seen = [];
    for await (const file of hashFilesOffThread(counted(), {
      algorithms: ['sha256'],
      concurrency: 4,
      signal: controller.signal,
      threadFile: THREAD,
    })) {
      seen.push(file);
      if (seen.length === 10) controller.abort();
    }
    // What was sent before the abort is still hashed and yielded; the rest is never pulled.
    expect(seen.length).toBeGreaterThanOrEqual(10);
    expect(pulled).toBeLessThan(paths.length);
    expect(seen).toHaveLength(new Set(seen.map((file) => file.index)).size);

    let taken = 0;
    for await (const _ of hashFilesOffThread(walk(paths), {
      algorithms: ['sha256'],
      concurrency: 4,
      signal: new AbortController().signal,
      threadFile: THREAD,
    })) {
      taken += 1;
      if (taken === 5) break;
    }
    expect(taken).toBe(5);
  });

  it('hashes on the main thread when there is no thread file (run from source)', async () => {
    const files = [];
    for await (const file of hashFilesOffThread(walk(paths.slice(0, 20)), {
      algorithms: ['sha256'],
      concurrency: 2,
      signal: new AbortController().signal,
      threadFile: undefined,
    })) {
      files.push(file);
    }
    expect(files).toHaveLength(20);
  });
  it('starts no thread when no path comes (a re-check that reads nothing)', async () => {
    // A thread file that does not exist: starting a thread from it fails, so nothing may start one.
    const missing = pathToFileURL(join(dir, 'no-such-thread.mjs'));
    const files: unknown[] = [];
    for await (const file of hashFilesOffThread(walk([]), {
      algorithms: ['sha256'],
      concurrency: 8,
      signal: new AbortController().signal,
      threadFile: missing,
    })) {
      files.push(file);
    }
    expect(files).toEqual([]);
  });
});
