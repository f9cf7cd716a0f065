// The msw kit consumer (msw-kit.mjs) under Bun and Deno. Under Deno, msw's interceptor keeps the
// process alive after `server.close()` (a plain `fetch` through msw does the same), so this exits
// once the kit's assertions have passed; a failed assertion rejects the import and exits non-zero.
await import('./msw-kit.mjs');
process.exit(0);
