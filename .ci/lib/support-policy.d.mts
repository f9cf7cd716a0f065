// Types of support-policy.mjs, for its unit test (test/ci/support-policy.test.ts).
export interface NodeLine {
  major: number;
  nodeEndOfLife: string;
  endOfSupport: string | null;
  note: string;
}
export interface HeldBack {
  name: string;
  kind: 'dependency' | 'devDependency';
  held: number;
  current: number;
  currentNeedsNode: string;
  reason: string;
}
export interface RuntimeLine {
  name: string;
  devDependency: string;
  version: string;
  ciSteps: string[];
  note: string;
}
export interface SupportPolicy {
  minimumNode: string;
  node: NodeLine[];
  runtimes?: RuntimeLine[];
  heldBack: HeldBack[];
}
export interface PolicyInputs {
  policy: SupportPolicy;
  manifest: {
    engines?: { node?: string };
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  runScript: string;
  readme: string;
  baseNodeMajor: number;
  today: string;
}
export const README_START: string;
export const README_END: string;
export function parseVersion(text: string): [number, number, number] | undefined;
export function compareVersions(a: readonly number[], b: readonly number[]): number;
export function enginesMinimum(range: string | undefined): [number, number, number] | undefined;
export function defaultMatrix(runScript: string): number[] | undefined;
export function rangeMajor(range: string | undefined): number | undefined;
export function renderReadmeSection(policy: SupportPolicy): string;
export function checkSupportPolicy(inputs: PolicyInputs): string[];
export function writeReadmeSection(readme: string, policy: SupportPolicy): string;
export const POLICY_PAGE: string;
export function checkRuntimes(inputs: Pick<PolicyInputs, 'policy' | 'manifest' | 'runScript'>): string[];
