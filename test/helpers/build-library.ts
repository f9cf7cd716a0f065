/**
 * Builds the library entries (ESM and CJS, without declarations or source maps) with tsup's own
 * configuration into the folder given as the first argument. Run as a child process by the global
 * setup `test/build-library.ts`: inside a test worker, tsup's ESM output was now and then cut short.
 */
import { build, type Options } from 'tsup';
import configs from '../../tsup.config.js';

const outDir = process.argv[2];
if (outDir === undefined) throw new TypeError('usage: build-library.ts OUT_DIR');
for (const options of (configs as Options[]).slice(0, 2)) {
  // `config: false`: else tsup also runs every configuration of tsup.config.ts (the CLI's too) into the same folder.
  await build({ ...options, config: false, dts: false, sourcemap: false, clean: false, outDir, silent: true });
}
