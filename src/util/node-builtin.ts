/**
 * A Node built-in module where the runtime has one (Node, Bun, Deno, Workers
 * with `nodejs_compat`), through `process.getBuiltinModule`: no `import` a
 * bundler would follow, so a Worker without `nodejs_compat` still bundles
 * and runs, and gets `undefined` here.
 */
export function nodeBuiltin<T>(name: `node:${string}`): T | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return process?.getBuiltinModule?.(name) as T | undefined;
  } catch {
    return undefined;
  }
}
