// Reports (never fails on) the direct dependencies a major or more behind their latest release, so
// drift is seen as it happens. Those the support policy holds back for the oldest supported Node are
// listed as such; test-only aliases of older majors (`undici6`) are left out.
// Usage: node .ci/lib/outdated.mjs   (asks the registry: `npm view NAME@latest version engines`)
// Under .ci/run it writes `drift` to $CI_STEP_NOTE when a dependency is behind without a reason in
// support-policy.json, and `unavailable` when the registry did not answer: the summary shows it.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const major = (version) => Number(/^(\d+)/.exec(String(version))?.[1] ?? Number.NaN);

/**
 * The direct dependencies to check: `{ key, name, range }` (an alias `undici8: npm:undici@^8` has
 * key `undici8` and name `undici`). Aliases named after a major (`undici6`, `msw3`) pin that major
 * on purpose and are skipped.
 */
export function directDependencies(manifest) {
  const entries = [];
  for (const [kind, deps] of [
    ['dependency', manifest.dependencies],
    ['devDependency', manifest.devDependencies],
  ]) {
    for (const [key, range] of Object.entries(deps ?? {})) {
      const alias = /^npm:((?:@[^/]+\/)?[^@]+)@(.*)$/.exec(range);
      if (alias && /\d$/.test(key)) continue;
      entries.push({ key, name: alias ? alias[1] : key, range: alias ? alias[2] : range, kind });
    }
  }
  return entries;
}

/**
 * Rows of the report: each dependency whose installed major is below the latest one, with why
 * (`held back` by the policy, or `behind`). `installed` maps key → version; `latest` maps name →
 * `{ version, node }` (the latest release's engines.node).
 */
export function driftReport(entries, installed, latest, policy) {
  const rows = [];
  for (const entry of entries) {
    const have = installed[entry.key];
    const newest = latest[entry.name];
    if (have === undefined || newest === undefined) continue;
    const behind = major(newest.version) - major(have);
    if (!(behind > 0)) continue;
    const held = policy.heldBack.find((item) => item.name === entry.name && item.held === major(have));
    rows.push({
      name: entry.name,
      kind: entry.kind,
      installed: have,
      latest: newest.version,
      node: newest.node ?? 'any',
      status: held ? `held back: ${held.reason}` : 'behind',
    });
  }
  return rows;
}

async function main() {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
  const policy = JSON.parse(readFileSync(`${root}support-policy.json`, 'utf8'));
  const entries = directDependencies(manifest);
  const installed = {};
  for (const entry of entries) {
    try {
      installed[entry.key] = JSON.parse(readFileSync(`${root}node_modules/${entry.key}/package.json`, 'utf8')).version;
    } catch {
      // Not installed: nothing to compare.
    }
  }
  const run = promisify(execFile);
  const latest = {};
  let failures = 0;
  const names = [...new Set(entries.map((entry) => entry.name))];
  const ask = async (name) => {
    try {
      const { stdout } = await run('npm', ['view', `${name}@latest`, 'version', 'engines', '--json'], {
        timeout: 60_000,
      });
      // One field (no engines) comes back as a bare string, both as an object.
      const info = JSON.parse(stdout);
      latest[name] = typeof info === 'string' ? { version: info } : { version: info.version, node: info.engines?.node };
    } catch {
      failures += 1;
    }
  };
  for (let i = 0; i < names.length; i += 4) await Promise.all(names.slice(i, i + 4).map(ask));

  const rows = driftReport(entries, installed, latest, policy);
  const note = (word) => process.env.CI_STEP_NOTE && writeFileSync(process.env.CI_STEP_NOTE, word);
  if (rows.length === 0) console.log('every direct dependency is on its latest major');
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(24)} ${row.installed.padEnd(10)} -> ${row.latest.padEnd(10)} (node ${row.node}) ${row.kind}: ${row.status}`,
    );
  }
  if (failures > 0) {
    console.log(`OUTDATED CHECK INCOMPLETE: the registry did not answer for ${failures} of ${names.length} packages`);
    note('unavailable');
  } else if (rows.some((row) => row.status === 'behind')) {
    note('drift');
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // A report: whatever happens, it never fails the run.
  main().catch((error) => console.log(`OUTDATED CHECK FAILED TO RUN: ${error.message}`));
}
