import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { EICAR_RECORD } from '../../src/doubles/defaults.js';
import { recordFor } from '../../src/doubles/records.js';
import type { RecordedRequest } from '../../src/doubles/request-log.js';
import { routeSmsRequest } from '../../src/doubles/routing.js';
import { substituteTemplate } from '../../src/doubles/templates.js';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { createHashScanHandlers, createSmsHandlers } from '../../src/testing/msw-handlers.js';

const SRC = new URL('../../src/', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The module specifiers a file imports or re-exports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)\s[^;]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map(
    (match) => match[1] ?? match[2] ?? '',
  );
}

describe('routeSmsRequest (spec part 4, first matching row wins)', () => {
  const none = new Headers();
  it.each([
    ['GET', { u: '1', p: '2', m: '3', c: '4', Action: 'SendSms' }, none, 'third-party-gateway'],
    ['DELETE', { u: '1', p: '2', m: '3', c: '4' }, none, 'third-party-gateway'],
    ['GET', { u: '1', p: '2', m: '3' }, none, 'syskey'],
    ['POST', { Version: '2021-01-11', Action: 'SendSms' }, none, 'second-vendor'],
    ['GET', { Action: 'SendSms' }, new Headers({ 'X-TC-Action': 'SendSms' }), 'second-vendor'],
    ['PUT', {}, new Headers({ 'X-TC-Version': '2021-01-11' }), 'second-vendor'],
    ['GET', { Action: 'SendSms', Version: '2017-05-25' }, none, 'aksk'],
    ['POST', {}, none, 'aksk'],
    ['POST', { Action: 'Other' }, none, 'aksk'],
    ['GET', {}, none, 'syskey'],
    ['GET', { Action: '' }, none, 'unknown-action'],
    ['GET', { Action: 'sendsms' }, none, 'unknown-action'],
    ['PUT', { Action: 'SendSms' }, none, 'method-not-allowed'],
    ['OPTIONS', {}, none, 'method-not-allowed'],
  ] as const)('%s %j routes to %s', (method, params, headers, route) => {
    expect(routeSmsRequest(method, params, headers as Headers)).toBe(route);
  });
});

describe('substituteTemplate', () => {
  it('fills placeholders once and names the missing ones', () => {
    expect(substituteTemplate(`$\{a}-$\{b}-$\{a}`, { a: 1, b: `$\{a}` })).toEqual({
      content: `1-$\{a}-1`,
      missing: [],
    });
    expect(substituteTemplate(`Hi $\{name}, $\{code}`, { name: null })).toEqual({
      content: `Hi $\{name}, $\{code}`,
      missing: ['name', 'code'],
    });
    expect(substituteTemplate(`$\{toString}`, {}).missing).toEqual(['toString']);
  });
});

describe('recordFor', () => {
  it('computes the three digests of the content, as Buffer or string alike', () => {
    const record = recordFor('abc', {
      source: 'unit',
      firstSeen: '2024-02-03 04:05:06',
      lastSeen: new Date('2024-03-04T05:06:07.890Z'),
    });
    expect(record).toEqual({
      md5: '900150983cd24fb0d6963f7d28e17f72',
      sha1: 'a9993e364706816aba3e25717850c26c9cd0d89d',
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      source: 'unit',
      firstSeen: '2024-02-03 04:05:06',
      lastSeen: '2024-03-04 05:06:07',
    });
    expect(recordFor(Buffer.from('abc'))).toMatchObject({ md5: record.md5, source: 'sandbox' });
  });
});

describe('configuration errors', () => {
  it.each([
    [
      'a record with a short digest',
      () => createHashScanHandlers({ baseUrl: 'https://h.test', records: [{ ...EICAR_RECORD, md5: 'abc' }] }),
    ],
    [
      'a record with a badly shaped time',
      () =>
        createHashScanHandlers({ baseUrl: 'https://h.test', records: [{ ...EICAR_RECORD, lastSeen: 'yesterday' }] }),
    ],
    [
      'a fault on a non-hash',
      () => createHashScanHandlers({ baseUrl: 'https://h.test', faults: { 'not-a-hash': 'timeout' } }),
    ],
    [
      'an unknown fault kind',
      () => createHashScanHandlers({ baseUrl: 'https://h.test', faults: { [EICAR_RECORD.md5]: 'boom' as 'timeout' } }),
    ],
    ['an empty api key', () => createHashScanHandlers({ baseUrl: 'https://h.test', apiKey: '' })],
    ['a base URL with a query', () => createHashScanHandlers({ baseUrl: 'https://h.test/?x=1' })],
    ['a base URL that is not a URL', () => createSmsHandlers({ baseUrl: 'sms.test' })],
    [
      'an account without a secret',
      () =>
        createSmsHandlers({
          baseUrl: 'https://s.test',
          accounts: [{ accessKeyId: 'a', accessKeySecret: '', plan: 'free' }],
        }),
    ],
    ['an empty default signature', () => createSmsHandlers({ baseUrl: 'https://s.test', defaultSignName: '' })],
  ])('refuses %s at set-up', (_label, create) => {
    expect(create).toThrow(ConfigurationError);
  });
});

describe('package boundaries', () => {
  const files = sourceFiles(SRC);

  it('keeps the testing kit (src/testing, src/sandbox) out of everything else under src/', () => {
    const kit = (file: string): boolean => /^(testing|sandbox)\//.test(relative(SRC, file));
    // The command line runs the sandbox (`sandbox`, `--sandbox`) through its msw-free entry, checked below.
    const cliUsesSandbox = (file: string): boolean =>
      relative(SRC, file).startsWith('cli/') &&
      importsOf(file).every(
        (specifier) => !/(testing|sandbox)\//.test(specifier) || /\/sandbox\/index\.js$/.test(specifier),
      );
    const offenders = files
      .filter((file) => !kit(file) && !cliUsesSandbox(file))
      .filter((file) => importsOf(file).some((specifier) => /(testing|sandbox)\//.test(specifier)));
    expect(offenders).toEqual([]);
  });

  it('imports msw from the msw adapter only, so the sandbox runs without msw', () => {
    const isMsw = (specifier: string): boolean => specifier === 'msw' || specifier.startsWith('msw/');
    const importers = files.filter((file) => importsOf(file).some(isMsw));
    expect(importers.map((file) => relative(SRC, file))).toEqual(['testing/msw-handlers.ts']);

    // Everything the `hashscan-sms/sandbox` entry loads, transitively, within src/.
    const closure = new Set<string>();
    const visit = (file: string): void => {
      if (closure.has(file)) return;
      closure.add(file);
      for (const specifier of importsOf(file).filter((s) => s.startsWith('.'))) {
        visit(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
      }
    };
    visit(join(SRC, 'sandbox/index.ts'));
    // The command line too: it must run where msw is not installed.
    visit(join(SRC, 'cli/bin.ts'));
    expect(closure.size).toBeGreaterThan(10);
    expect(closure).toContain(join(SRC, 'sandbox/start-sandbox.ts'));
    expect([...closure].filter((file) => importsOf(file).some(isMsw))).toEqual([]);
  });

  it('tells onRequest about each request it records', async () => {
    const seen: RecordedRequest[] = [];
    const handlers = createHashScanHandlers({ baseUrl: 'https://h.test', onRequest: (entry) => seen.push(entry) });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      await fetch(`https://h.test/hash_scan?api_key=sandbox-api-key&hash=${EICAR_RECORD.md5}`);
    } finally {
      server.close();
    }
    expect(seen).toHaveLength(1);
    expect(seen).toEqual(handlers.requests);
  });
});
