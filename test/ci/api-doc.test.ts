// docs/api.md lists every name of every package entry, from the recorded surface (api-report/, which
// `npm run api:check` keeps equal to the built package): a name added to an entry without a line in
// docs/api.md fails here, and so does a deprecated alias listed among the names to use.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');

interface ReportedName {
  readonly name: string;
  readonly deprecated: boolean;
}

/** The exported names of one API report, each with whether its TSDoc says `@deprecated`. */
function namesOf(report: string): ReportedName[] {
  const lines = report.split('\n');
  const names = new Map<string, boolean>();
  lines.forEach((line, index) => {
    const match = /^export (?:declare )?(?:abstract )?(?:function|const|class|interface|type|enum) (\w+)/.exec(line);
    if (match?.[1] === undefined) return;
    let deprecated = false;
    for (let above = index - 1; above >= 0 && lines[above]?.startsWith('//'); above -= 1) {
      if (lines[above]?.includes('@deprecated')) deprecated = true;
    }
    names.set(match[1], (names.get(match[1]) ?? false) || deprecated);
  });
  return [...names].map(([name, deprecated]) => ({ name, deprecated }));
}

/** `hashscan-sms.api.md` → `hashscan-sms`, `hashscan-sms-hashing.api.md` → `hashscan-sms/hashing`. */
const entryOf = (file: string): string => file.replace(/\.api\.md$/, '').replace(/^hashscan-sms-/, 'hashscan-sms/');

/** The text under each `## \`entry\`` heading of docs/api.md, up to the next `## ` heading. */
function sectionsOf(doc: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const part of doc.split(/^(?=## )/m)) {
    const entry = /^## `([^`]+)`/.exec(part)?.[1];
    if (entry !== undefined) sections.set(entry, part);
  }
  return sections;
}

/** Whether `text` names `name` in code: `` `name` `` or a call, `` `name(…)` ``. */
const lists = (text: string, name: string): boolean => new RegExp(`\`${name}[\`(<]`).test(text);

const doc = read('docs/api.md');
const sections = sectionsOf(doc);
const reports = readdirSync(new URL('api-report/', root))
  .filter((file) => file.endsWith('.api.md'))
  .map((file) => ({ entry: entryOf(file), names: namesOf(read(`api-report/${file}`)) }));

describe('docs/api.md: the whole public surface', () => {
  it('reads the six entries and the root entry names', () => {
    expect(reports.map(({ entry }) => entry).sort()).toEqual([
      'hashscan-sms',
      'hashscan-sms/fleet',
      'hashscan-sms/hashing',
      'hashscan-sms/sandbox',
      'hashscan-sms/signing',
      'hashscan-sms/testing',
    ]);
    const rootNames = reports.find(({ entry }) => entry === 'hashscan-sms')?.names ?? [];
    expect(rootNames.map(({ name }) => name)).toEqual(expect.arrayContaining(['HashScanClient', 'decide']));
    expect(rootNames.filter(({ deprecated }) => deprecated).map(({ name }) => name)).toContain('decideWithReason');
  });

  it.each(reports)('lists every name of $entry in its section', ({ entry, names }) => {
    const section = sections.get(entry) ?? '';
    expect(section, `docs/api.md has no "## \`${entry}\`" section`).not.toBe('');
    // The testing entry re-exports the sandbox's names; docs/api.md lists them once, under the sandbox.
    const listed = entry === 'hashscan-sms/testing' ? section + (sections.get('hashscan-sms/sandbox') ?? '') : section;
    expect(names.filter(({ name }) => !lists(listed, name)).map(({ name }) => name)).toEqual([]);
  });

  it('lists the root deprecated aliases under "Deprecated aliases" only, and every other root name above it', () => {
    const section = sections.get('hashscan-sms') ?? '';
    const [current = '', deprecatedPart = ''] = section.split(/^### Deprecated aliases$/m);
    const rootNames = reports.find(({ entry }) => entry === 'hashscan-sms')?.names ?? [];
    const deprecated = rootNames.filter((name) => name.deprecated).map(({ name }) => name);
    expect(deprecated.filter((name) => !lists(deprecatedPart, name))).toEqual([]);
    expect(deprecated.filter((name) => lists(current, name))).toEqual([]);
    const kept = rootNames.filter((name) => !name.deprecated).map(({ name }) => name);
    expect(kept.filter((name) => !lists(current, name))).toEqual([]);
  });
});
