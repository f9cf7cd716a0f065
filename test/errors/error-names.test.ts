/**
 * The error classes keep their names in the built package: `error.name`, `String(error)` and
 * `error.constructor.name` say `HashScanError`, not the `_HashScanError` a bundler renames it to.
 * Builds the four library entries with tsup's own configuration (ESM and CJS, without declarations)
 * and loads them in a child `node`, as an application does.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LIBRARY_DIR as OUT_DIR } from '../build-library.js';

/** Each public error class, how to build one, and the entry that exports it. */
const CASES = [
  ['HashScanError', "new m.HashScanError({ code: 'NETWORK', message: 'network error' })", 'index'],
  ['SmsError', "new m.SmsError({ code: 'OUTCOME_UNKNOWN', message: 'cut', outcome: 'unknown' })", 'index'],
  ['ConfigurationError', "new m.ConfigurationError('baseUrl', 'missing')", 'index'],
  ['SigningError', "new m.SigningError('lone surrogate')", 'index'],
  ['TruncatedStreamError', 'new m.TruncatedStreamError({ bytesRead: 10 })', 'hashing'],
  ['EncodedBodyError', "new m.EncodedBodyError('gzip')", 'hashing'],
] as const;

/** A script printing `[String(e), e.name, e.constructor.name]` for each case, and the base class's name. */
function probe(load: (entry: string) => string): string {
  const lines = CASES.map(
    ([, make, entry]) =>
      `{ const m = ${load(entry)}; const e = ${make}; out.push([String(e), e.name, e.constructor.name]); }`,
  );
  return `const out = []; ${lines.join('\n')}\n{ const m = ${load('index')}; out.push([m.HashScanSmsError.name]); }\nconsole.log(JSON.stringify(out));`;
}

function run(args: string[]): string[][] {
  const child = spawnSync(process.execPath, args, { cwd: OUT_DIR, encoding: 'utf8' });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as string[][];
}

function expected(): string[][] {
  const first = ['network error', 'cut', 'baseUrl: missing', 'lone surrogate'];
  return [
    ...CASES.map(([name], index) => [
      // TruncatedStreamError and EncodedBodyError write their own messages; only their prefix is checked below.
      `${name}: ${first[index] ?? ''}`,
      name,
      name,
    ]),
    ['HashScanSmsError'],
  ];
}

function check(found: string[][]): void {
  const want = expected();
  expect(found).toHaveLength(want.length);
  found.forEach((row, index) => {
    const wanted = want[index] ?? [];
    if (row.length === 3) {
      expect(row[0]?.startsWith(wanted[0] ?? '')).toBe(true);
      expect(row.slice(1)).toEqual(wanted.slice(1));
    } else expect(row).toEqual(wanted);
  });
}

describe('error names survive the bundler (the built ESM and CJS entries)', () => {
  it('ESM: import', () => {
    const load = (entry: string): string => `await import('./${entry}.js')`;
    check(run(['--input-type=module', '-e', probe(load)]));
  });

  it('CJS: require()', () => {
    const load = (entry: string): string => `require('./${entry}.cjs')`;
    check(run(['-e', probe(load)]));
  });
});
