import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { LIBRARY_DIR as OUT_DIR } from '../../build-library.js';

/*
 * How far one call is spread out: the stack frames from `scan(hash)` to `fetch` on the default path
 * (ky over `fetch`) of the built package, counted through the async call stacks the inspector gives
 * DevTools (V8's `Error.stack` stops at ky's first `await`). ky's own frames count too.
 */
const MAX_FRAMES = 14;
const CHILD = fileURLToPath(new URL('./call-depth-child.mjs', import.meta.url));

it(`has at most ${MAX_FRAMES} frames from scan() to fetch on the default path`, () => {
  const child = spawnSync(process.execPath, [CHILD, join(OUT_DIR, 'index.js')], { encoding: 'utf8' });
  expect(child.stderr).toBe('');
  const frames = JSON.parse(child.stdout) as string[];
  expect(frames[0]).toBe('fetch');
  expect(frames.at(-1)).toBe('scan');
  expect(frames.length, frames.join(' <- ')).toBeLessThanOrEqual(MAX_FRAMES);
});
