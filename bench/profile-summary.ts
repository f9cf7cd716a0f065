/**
 * Prints the functions with the most self time in a .cpuprofile (from `node --cpu-prof`),
 * and the same grouped by package or file.
 * Usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top=25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const [file, topArg = '25'] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const where = (url: string): string => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  if (url.startsWith('node:')) return url;
  return url === '' ? '(native)' : (url.split('/').pop() ?? url);
};

const functions = new Map<string, number>();
const groups = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = (byId.get(id) as ProfileNode).callFrame;
  const name = `${frame.functionName || '(anonymous)'}  ${where(frame.url)}:${frame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + us);
  groups.set(where(frame.url), (groups.get(where(frame.url)) ?? 0) + us);
}
const print = (title: string, entries: Map<string, number>): void => {
  console.log(`\n${title} (total ${(total / 1000).toFixed(0)} ms)`);
  for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) {
    console.log(`${((us / total) * 100).toFixed(1).padStart(5)} %  ${name}`);
  }
};
print('self time by function', functions);
print('self time by package / file', groups);
