// Types of check-links.mjs, for its unit test (test/ci/check-links.test.ts).
export function slugify(heading: string): string;
export function anchorsOf(markdown: string): Set<string>;
export function linksOf(markdown: string): string[];
export interface LinkOptions {
  readonly repository?: string | undefined;
  readonly published?: readonly string[];
}
export function checkLinks(root: string, files: readonly string[], options?: LinkOptions): string[];
export function repositoryUrl(manifest: { repository?: unknown }): string | undefined;
export function repositoryOptions(root: string): LinkOptions;
export function documentationFiles(root: string): string[];
