// Types of import-rules.mjs, for its unit test (test/ci/import-rules.test.ts).
export function mayImport(markdown: string): string[] | undefined;
export function checkImportRules(
  graph: Readonly<Record<string, readonly string[]>>,
  rules: ReadonlyMap<string, readonly string[] | undefined>,
  exists: (path: string) => boolean,
): string[];
export function readRules(src: string, files: readonly string[]): Map<string, string[] | undefined>;
