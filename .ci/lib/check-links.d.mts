// Types of check-links.mjs, for its unit test (test/ci/check-links.test.ts).
export function slugify(heading: string): string;
export function anchorsOf(markdown: string): Set<string>;
export function linksOf(markdown: string): string[];
export function checkLinks(root: string, files: readonly string[]): string[];
export function documentationFiles(root: string): string[];
