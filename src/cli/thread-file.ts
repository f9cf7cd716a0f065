import { existsSync } from 'node:fs';
import { extname } from 'node:path';

/**
 * The file of one of the CLI's threads (`cli-hash-thread`),
 * where the build puts it: beside `cli.js`, one level above the chunks
 * (`cli-chunks/`) the calling module is bundled into, with the same
 * extension. `undefined` when absent: run from source (the in-process
 * tests), the work stays on the main thread.
 */
export function builtThreadFile(name: string, moduleUrl: string): URL | undefined {
  const file = new URL(`../${name}${extname(new URL(moduleUrl).pathname)}`, moduleUrl);
  return existsSync(file) ? file : undefined;
}
