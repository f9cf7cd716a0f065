/** Benchmark 6b: cold `import()` of the package root, a fresh process per sample, vs the vendor SDK. */
import { nodeJson } from './lib/child.js';
import type { Settings } from './lib/config.js';
import { ratio, type Summary, summarize } from './lib/stats.js';
import { VENDOR_SDK } from './size.js';

export interface StartupResult {
  readonly samples: number;
  /** Milliseconds from `import()` to the resolved namespace, in a fresh process. */
  readonly importMs: { readonly sdk: Summary; readonly vendor: Summary };
  /** Vendor time / SDK time, per sample pair. */
  readonly vendorOverSdk: Summary;
}

/** `hashscan-sms` resolves through the package's own `exports` (self-reference) to dist/index.js. */
const coldImport = (specifier: string): Promise<{ ms: number }> =>
  nodeJson([
    '--input-type=module',
    '-e',
    `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(JSON.stringify({ ms: performance.now() - t }));`,
  ]);

export async function startup(settings: Settings): Promise<StartupResult> {
  const sdk: number[] = [];
  const vendor: number[] = [];
  await coldImport('hashscan-sms'); // fill the OS file cache for both
  await coldImport(VENDOR_SDK);
  for (let i = 0; i < settings.importSamples; i++) {
    // Alternate which goes first, as in the other benchmarks.
    if (i % 2 === 0) {
      sdk.push((await coldImport('hashscan-sms')).ms);
      vendor.push((await coldImport(VENDOR_SDK)).ms);
    } else {
      vendor.push((await coldImport(VENDOR_SDK)).ms);
      sdk.push((await coldImport('hashscan-sms')).ms);
    }
  }
  return {
    samples: settings.importSamples,
    importMs: { sdk: summarize(sdk, 1), vendor: summarize(vendor, 1) },
    vendorOverSdk: ratio(vendor, sdk),
  };
}
