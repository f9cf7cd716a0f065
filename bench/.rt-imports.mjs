import { build } from 'esbuild';

const r = await build({
  entryPoints: [process.argv[2]],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  write: false,
  metafile: true,
  logLevel: 'silent',
  external: [
    'node:*',
    'crypto',
    'util',
    'fs',
    'http',
    'module',
    'diagnostics_channel',
    'fs/promises',
    'stream',
    'events',
    'async_hooks',
    'path',
    'os',
    'url',
    'buffer',
    'net',
    'tls',
    'worker_threads',
    'perf_hooks',
    'string_decoder',
    'zlib',
  ],
});
const who = new Map();
for (const [file, info] of Object.entries(r.metafile.inputs))
  for (const i of info.imports)
    if (i.external) {
      const k = i.path;
      (who.get(k) ?? who.set(k, new Set()).get(k)).add(file + (i.kind === 'dynamic-import' ? ' (dynamic)' : ''));
    }
for (const [k, v] of who) console.log(k, '<-', [...v].join(', '));
