// Checks that the support policy (support-policy.json), package.json `engines`, the CI Node matrix
// (.ci/run: the machine's Node plus the CI_NODE_MATRIX default) and the policy table of docs/support-policy.md agree.
// Usage: node .ci/lib/support-policy.mjs          check; exit 1 with the list of disagreements
//        node .ci/lib/support-policy.mjs --write  rewrite docs/support-policy.md's table from the policy
// The checks are the exported `checkSupportPolicy`, unit-tested in test/ci/support-policy.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const README_START = '<!-- support-policy:start (generated from support-policy.json) -->';
export const README_END = '<!-- support-policy:end -->';
/** The page that holds the policy table (the README links to it). */
export const POLICY_PAGE = 'docs/support-policy.md';

/** `20.19` or `20.19.0` → [20, 19, 0]; undefined when it is not a version. */
export function parseVersion(text) {
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(String(text).trim());
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : undefined;
}

export function compareVersions(a, b) {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The lowest version a plain `>=X.Y.Z` engines range admits; undefined for any other form of range. */
export function enginesMinimum(range) {
  const match = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(String(range ?? '').trim());
  return match ? parseVersion(match[1]) : undefined;
}

/** The Node majors .ci/run tests by default besides the machine's own: `${CI_NODE_MATRIX-22 24 26}`. */
export function defaultMatrix(runScript) {
  const match = /\$\{CI_NODE_MATRIX-([0-9 ]*)\}/.exec(runScript);
  return match ? match[1].split(/\s+/).filter(Boolean).map(Number) : undefined;
}

/** The major a package.json range pins (`~1.14.2`, `^7.1.1`, `5.1.6`, `npm:undici@^8` → 1, 7, 5, 8). */
export function rangeMajor(range) {
  const match = /(?:^|@|\s)[\^~>=v]*(\d+)(?:\.|$|\s)/.exec(String(range ?? ''));
  return match ? Number(match[1]) : undefined;
}

const format = (version) => version.join('.');

/** The README section stating the policy, generated from it (the README must hold it verbatim). */
export function renderReadmeSection(policy) {
  const lines = [README_START, '| Node.js | Node.js end of life | supported by hashscan-sms |', '|---|---|---|'];
  for (const line of policy.node) {
    const name =
      line.major === parseVersion(policy.minimumNode)[0] ? `${line.major} (>= ${policy.minimumNode})` : `${line.major}`;
    const until = line.endOfSupport
      ? `until ${line.endOfSupport}: ${line.note}`
      : `${line.note}, at least until its end of life`;
    lines.push(`| ${name} | ${line.nodeEndOfLife} | ${until} |`);
  }
  lines.push('', `Held back while Node ${parseVersion(policy.minimumNode)[0]} is supported:`, '');
  for (const held of policy.heldBack) {
    lines.push(
      `- \`${held.name}\` ${held.held} (${held.kind}; ${held.name} ${held.current} is current and needs Node >= ${held.currentNeedsNode}): ${held.reason}.`,
    );
  }
  lines.push(README_END);
  return lines.join('\n');
}

/**
 * Every disagreement between the policy and the rest, as sentences; empty when they agree.
 * `today` is `YYYY-MM-DD`; `baseNodeMajor` the major of the Node that runs .ci/run.
 */
export function checkSupportPolicy({ policy, manifest, runScript, readme, baseNodeMajor, today }) {
  const problems = [];
  const minimum = parseVersion(policy.minimumNode);
  if (!minimum) return [`support-policy.json: minimumNode "${policy.minimumNode}" is not a version`];
  const majors = policy.node.map((line) => line.major);
  if (majors.length === 0) problems.push('support-policy.json: no supported Node line');
  const lowest = Math.min(...majors);

  const engines = enginesMinimum(manifest.engines?.node);
  if (!engines) {
    problems.push(`package.json engines.node "${manifest.engines?.node}" must be a plain ">=X.Y.Z" range`);
  } else if (compareVersions(engines, minimum) !== 0) {
    problems.push(
      `package.json engines.node admits Node >= ${format(engines)}, the policy's minimum is ${policy.minimumNode}`,
    );
  }
  if (minimum[0] !== lowest) {
    problems.push(
      `support-policy.json: minimumNode ${policy.minimumNode} is not on the lowest supported line (${lowest})`,
    );
  }

  const matrix = defaultMatrix(runScript);
  if (!matrix) {
    problems.push('.ci/run: no default for CI_NODE_MATRIX (the `CI_NODE_MATRIX-22 24 26` form) found');
  } else {
    const tested = new Set([baseNodeMajor, ...matrix]);
    for (const major of majors) {
      if (!tested.has(major)) {
        problems.push(
          `Node ${major} is supported but not tested: CI runs on Node ${baseNodeMajor} plus CI_NODE_MATRIX "${matrix.join(' ')}"`,
        );
      }
    }
    for (const major of tested) {
      if (!majors.includes(major)) problems.push(`CI tests Node ${major}, which the policy does not support`);
    }
  }

  for (const line of policy.node) {
    if (line.endOfSupport === null || line.endOfSupport === undefined) continue;
    if (line.endOfSupport < line.nodeEndOfLife) {
      problems.push(`Node ${line.major}: end of support ${line.endOfSupport} comes before Node's own end of life`);
    }
    if (today > line.endOfSupport) {
      problems.push(
        `Node ${line.major}: support ended on ${line.endOfSupport}: drop it from support-policy.json, engines and the CI matrix, then move the held-back majors on`,
      );
    }
  }

  const declared = { ...manifest.devDependencies, ...manifest.dependencies };
  for (const held of policy.heldBack) {
    const range = declared[held.name];
    const needs = parseVersion(held.currentNeedsNode);
    if (range === undefined) {
      problems.push(`heldBack ${held.name}: not in package.json`);
      continue;
    }
    const kind = manifest.dependencies?.[held.name] !== undefined ? 'dependency' : 'devDependency';
    if (kind !== held.kind)
      problems.push(`heldBack ${held.name}: package.json has it as a ${kind}, the policy as a ${held.kind}`);
    if (rangeMajor(range) !== held.held) {
      problems.push(`heldBack ${held.name}: the policy holds it at ${held.held}, package.json asks for "${range}"`);
    }
    if (needs && compareVersions(minimum, needs) >= 0) {
      problems.push(
        `heldBack ${held.name}: ${held.name} ${held.current} needs Node >= ${held.currentNeedsNode}, which every supported Node has: move to it`,
      );
    }
  }

  const section = renderReadmeSection(policy);
  if (!readme.includes(section)) {
    problems.push(
      `${POLICY_PAGE} does not hold the policy table as support-policy.json states it: run \`node .ci/lib/support-policy.mjs --write\``,
    );
  }
  return problems;
}

/**
 * The runtimes besides Node (Bun, Deno, workerd): each pinned exactly as a devDependency (npm ci installs
 * it, binary inside) at the policy's version, and each of its CI steps present in .ci/run.
 */
export function checkRuntimes({ policy, manifest, runScript }) {
  const problems = [];
  for (const runtime of policy.runtimes ?? []) {
    const pinned = manifest.devDependencies?.[runtime.devDependency];
    if (pinned !== runtime.version) {
      problems.push(
        `runtime ${runtime.name}: the policy pins ${runtime.devDependency} ${runtime.version}, package.json devDependencies has "${pinned}"`,
      );
    }
    if (runtime.ciSteps.some((call) => !runScript.includes(call))) {
      problems.push(`runtime ${runtime.name}: .ci/run does not run ${runtime.ciSteps.join(', ')}`);
    }
  }
  return problems;
}

/** The README with its policy section replaced by the one generated from `policy`. */
export function writeReadmeSection(readme, policy) {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start === -1 || end === -1) throw new Error(`${POLICY_PAGE} has no ${README_START} … ${README_END} section`);
  return readme.slice(0, start) + renderReadmeSection(policy) + readme.slice(end + README_END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const read = (file) => readFileSync(root + file, 'utf8');
  const policy = JSON.parse(read('support-policy.json'));
  if (process.argv.includes('--write')) {
    writeFileSync(`${root}${POLICY_PAGE}`, writeReadmeSection(read(POLICY_PAGE), policy));
    console.log(`${POLICY_PAGE}: support policy table rewritten`);
    process.exit(0);
  }
  const manifest = JSON.parse(read('package.json'));
  const runScript = read('.ci/run');
  const problems = checkSupportPolicy({
    policy,
    manifest,
    runScript,
    readme: read(POLICY_PAGE),
    baseNodeMajor: Number(process.versions.node.split('.')[0]),
    today: new Date().toISOString().slice(0, 10),
  });
  problems.push(...checkRuntimes({ policy, manifest, runScript: runScript + read('.ci/lib/runtimes.sh') }));
  if (problems.length > 0) {
    console.error(`support policy, engines and CI matrix disagree:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  const lines = policy.node.map((line) =>
    line.endOfSupport ? `${line.major} (until ${line.endOfSupport})` : `${line.major}`,
  );
  console.log(
    `support policy: Node ${lines.join(', ')}; engines >=${policy.minimumNode}; CI matrix agrees; ${POLICY_PAGE} agrees; runtimes ${(policy.runtimes ?? []).map((r) => `${r.name} ${r.version}`).join(', ')} pinned and run`,
  );
}
