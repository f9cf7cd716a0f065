// Types of worker-run.mjs, for test/runtimes/.
import type { BuildResult } from 'esbuild';
import type { Miniflare, MiniflareOptions } from 'miniflare';
export const COMPATIBILITY_DATE: string;
export function bundleWorker(
  entry: string,
  options: { compat: boolean; outfile?: string; alias?: Record<string, string> },
): Promise<BuildResult<{ metafile: true; write: false }>>;
export function checkWorker(
  script: string,
  options: { compat: boolean },
): Promise<{ smoke: unknown; catalogue: unknown }>;
export function disposableMiniflare(options: MiniflareOptions): { mf: Miniflare; dispose(): Promise<void> };
