import { VERSION } from '../../version.js';

interface RuntimeGlobals {
  readonly Bun?: { readonly version: string };
  readonly Deno?: { readonly version: { readonly deno: string } };
  readonly navigator?: { readonly userAgent?: string };
  readonly process?: { readonly versions?: { readonly node?: string } };
}

/** The runtime as `name/version`: Bun and Deno also report a Node version, and a Worker may (`nodejs_compat`). */
function runtime(): string {
  const found = globalThis as RuntimeGlobals;
  if (found.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  if (found.Bun !== undefined) return `bun/${found.Bun.version}`;
  if (found.Deno !== undefined) return `deno/${found.Deno.version.deno}`;
  const node = found.process?.versions?.node;
  return node === undefined ? 'unknown' : `node/${node}`;
}

/** `User-Agent` sent with every request: names the package, its version and the runtime. */
export const USER_AGENT = `hashscan-sms/${VERSION} ${runtime()}`;
