/** Benchmark 6a: bundled entry sizes (esbuild --bundle --minify --platform=node, then gzip). */
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { DIST_CJS, DIST_ESM } from './lib/sdk.js';

export interface BundleSize {
  readonly minBytes: number;
  readonly gzipBytes: number;
}

export interface SizeResult {
  readonly sdk: { readonly esm: BundleSize; readonly cjs: BundleSize };
  /** The vendor SDK ships CommonJS only: its entry bundled as each format. */
  readonly vendor: { readonly esm: BundleSize; readonly cjs: BundleSize };
  /** Vendor gzip size / SDK gzip size. */
  readonly vendorOverSdk: { readonly esm: number; readonly cjs: number };
}

export const VENDOR_SDK = '@alicloud/dysmsapi20170525';

async function bundle(entry: string, format: 'esm' | 'cjs'): Promise<BundleSize> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: 'node',
    format,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { minBytes: code.length, gzipBytes: gzipSync(code).length };
}

export async function size(): Promise<SizeResult> {
  const vendorEntry = createRequire(import.meta.url).resolve(VENDOR_SDK);
  const sdk = { esm: await bundle(DIST_ESM, 'esm'), cjs: await bundle(DIST_CJS, 'cjs') };
  const vendor = { esm: await bundle(vendorEntry, 'esm'), cjs: await bundle(vendorEntry, 'cjs') };
  const times = (a: BundleSize, b: BundleSize) => Number((a.gzipBytes / b.gzipBytes).toFixed(2));
  return { sdk, vendor, vendorOverSdk: { esm: times(vendor.esm, sdk.esm), cjs: times(vendor.cjs, sdk.cjs) } };
}
