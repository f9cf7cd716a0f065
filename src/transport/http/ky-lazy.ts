/**
 * ky, evaluated by the first request that goes through it instead of by
 * `import('hashscan-sms')`. Imports only ky's types and `util/node-builtin`.
 *
 * Why: evaluating ky runs its feature test, which builds a `Request`; on Node
 * that loads the runtime's internal `fetch`, a large part of a cold import
 * (BENCHMARKS.md has the figure). The first request pays it instead, as a first `fetch` call
 * would, and clients on a dispatcher never pay it.
 *
 * Why `require` and not `import()`: it stays synchronous, so the first
 * request starts in the same tick as before (fake timers in a user's tests
 * see no gap). In the built package esbuild resolves the literal
 * `require('ky')` to its bundled copy of ky, evaluated on this first call;
 * no `require` of a package is left in `dist/`. Run from source as an ES
 * module (tsx) there is no `require`: ky then comes through `createRequire`.
 */
import type * as NodeModule from 'node:module';
import type Ky from 'ky';
import { nodeBuiltin } from '../../util/node-builtin.js';

type KyFactory = typeof Ky;

let ky: KyFactory | undefined;

export function kyFactory(): KyFactory {
  if (ky === undefined) {
    const module: unknown =
      typeof require === 'function'
        ? require('ky')
        : nodeBuiltin<typeof NodeModule>('node:module')?.createRequire(import.meta.url)('ky');
    ky = (module as { default: KyFactory }).default;
  }
  return ky;
}
