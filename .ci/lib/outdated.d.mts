// Types of outdated.mjs, for its unit test (test/ci/outdated.test.ts).
import type { SupportPolicy } from './support-policy.mjs';

export interface DependencyEntry {
  key: string;
  name: string;
  range: string;
  kind: 'dependency' | 'devDependency';
}
export interface DriftRow {
  name: string;
  kind: string;
  installed: string;
  latest: string;
  node: string;
  status: string;
}
export function directDependencies(manifest: {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}): DependencyEntry[];
export function driftReport(
  entries: DependencyEntry[],
  installed: Record<string, string>,
  latest: Record<string, { version: string; node?: string }>,
  policy: SupportPolicy,
): DriftRow[];
