import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anchorsOf,
  checkLinks,
  documentationFiles,
  linksOf,
  repositoryOptions,
  repositoryUrl,
  slugify,
} from '../../.ci/lib/check-links.mjs';

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A repository of `files` (path → text) in a temp dir. */
function repository(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'check-links-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('link checker (.ci/lib/check-links.mjs)', () => {
  it('slugs headings as GitHub does', () => {
    expect(slugify('Tracing and metrics (OpenTelemetry, diagnostics_channel)')).toBe(
      'tracing-and-metrics-opentelemetry-diagnostics_channel',
    );
    expect(slugify('Error codes (`HashScanError.code`)')).toBe('error-codes-hashscanerrorcode');
    expect(slugify('1. Unit tests with msw')).toBe('1-unit-tests-with-msw');
    expect(slugify('The [sandbox](x.md) data')).toBe('the-sandbox-data');
  });

  it('offers headings (repeats numbered), explicit ids, and not a # line inside a code block', () => {
    const anchors = anchorsOf('# A\n## Options\n```sh\n# not a heading\n```\n### Options\n<a id="kept"></a>\n');
    expect([...anchors]).toEqual(['a', 'options', 'options-1', 'kept']);
  });

  it('reads inline and reference links, not those in code', () => {
    expect(linksOf('[a](docs/x.md#y) `[b](nope.md)`\n[c]: ./z.md\n```\n[d](no.md)\n```\n[e](<w.md> "t")')).toEqual([
      'docs/x.md#y',
      'w.md',
      './z.md',
    ]);
  });

  it('passes links that resolve, and names each one that does not', () => {
    const dir = repository({
      'README.md': [
        '# Pkg',
        '## Install',
        '[ok](#install) [ok](docs/guide.md#first-steps) [ok](docs/) [ok](https://example.com/#x)',
        '[missing anchor](#nope) [missing file](docs/gone.md) [bad](docs/guide.md#later)',
      ].join('\n'),
      'docs/guide.md':
        '# Guide\n## First steps\n[back](../README.md#install) [up](../../outside.md) [src](../src/a.ts#L1)\n',
      'src/a.ts': '',
    });
    expect(documentationFiles(dir)).toEqual(['README.md', 'docs/guide.md']);
    expect(checkLinks(dir, documentationFiles(dir))).toEqual([
      'README.md: #nope (no heading #nope)',
      'README.md: docs/gone.md (no such file)',
      'README.md: docs/guide.md#later (no heading #later)',
      'docs/guide.md: ../../outside.md (outside the repository)',
      'docs/guide.md: ../src/a.ts#L1 (an anchor into a file that is not Markdown)',
    ]);
  });

  it("on the registry's page (README.md) wants absolute links, and checks those into the repository", () => {
    const repo = 'https://github.com/o/n';
    const dir = repository({
      'package.json': JSON.stringify({ repository: { type: 'git', url: `git+${repo}.git` } }),
      'README.md': [
        '# Pkg',
        `[ok](#pkg) [ok](${repo}/blob/main/docs/guide.md#first-steps) [ok](${repo}/tree/main/docs) [ok](https://x.example/a.md)`,
        `[relative](docs/guide.md) [gone](${repo}/blob/main/docs/gone.md) [bad](${repo}/blob/main/docs/guide.md#later)`,
      ].join('\n'),
      'docs/guide.md': '# Guide\n## First steps\n[back](../README.md#pkg)\n',
    });
    expect(repositoryUrl({ repository: `git+${repo}.git` })).toBe(repo);
    expect(repositoryOptions(dir)).toEqual({ repository: repo, published: ['README.md'] });
    expect(checkLinks(dir, documentationFiles(dir), repositoryOptions(dir))).toEqual([
      "README.md: docs/guide.md (relative: resolves to nothing on the registry's page; use https://github.com/o/n/blob/main/…)",
      `README.md: ${repo}/blob/main/docs/gone.md (no such file)`,
      `README.md: ${repo}/blob/main/docs/guide.md#later (no heading #later)`,
    ]);
  });

  it("this repository's README and guides have no broken link, and the README none relative", () => {
    const here = new URL('../../', import.meta.url).pathname;
    expect(checkLinks(here, documentationFiles(here), repositoryOptions(here))).toEqual([]);
  });
});
