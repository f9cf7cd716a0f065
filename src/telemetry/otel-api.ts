/*
 * Loads `@opentelemetry/api`, an optional peer dependency, on first use and
 * only then. Imports nothing of this package. Loaded with `require` (a
 * client's constructor is synchronous): the API keeps its registered
 * providers and context keys on `globalThis`, so its CommonJS copy sees
 * what an application registered through the ES module one.
 */
import type * as NodeModule from 'node:module';
import { nodeBuiltin } from '../util/node-builtin.js';

/** The API's module namespace. */
export type OtelApi = typeof import('@opentelemetry/api');

let api: OtelApi | null | undefined;

/**
 * Uses this copy of the API from now on (the command line's `--otel` hands in
 * the one its OpenTelemetry SDK registered its providers with, wherever that
 * was installed).
 */
export function useOtelApi(module: OtelApi): void {
  api = module;
}

/** The API, or `undefined` when it is not installed (or fails to load); asked once per process. */
export function otelApi(): OtelApi | undefined {
  if (api === undefined) {
    try {
      // Not a literal `require(…)`: bundlers must leave the package out, as it may be absent.
      // `node:module` through `nodeBuiltin`: a Worker without `nodejs_compat` has none, and no API then.
      const createRequire = nodeBuiltin<typeof NodeModule>('node:module')?.createRequire;
      if (createRequire === undefined) throw new Error('no node:module');
      const load = createRequire(import.meta.url);
      api = load('@opentelemetry/api') as OtelApi;
    } catch {
      api = null;
    }
  }
  return api ?? undefined;
}
