// Types of catalogue.mjs, for test/runtimes/.
export interface CatalogueEntry {
  name: string;
  hash: string;
  status: number;
  type: string;
  body: string;
  code: string;
}
export interface CatalogueResult {
  name: string;
  error?: string;
  code?: string;
  verdict?: string;
}
export const CATALOGUE: readonly CatalogueEntry[];
export const CLEAN: { status: number; type: string; body: string };
export function answerFor(url: string): { status: number; type: string; body: string };
export function runCatalogue(
  client: { scan(hash: string): Promise<{ verdict: string }> },
  classes: { HashScanError: abstract new (...args: never[]) => unknown },
): Promise<CatalogueResult[]>;
export const EXPECTED: readonly CatalogueResult[];
