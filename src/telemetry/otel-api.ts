/*
 * Loads `@opentelemetry/api`, an optional peer dependency, on first use and
 * only then. Imports nothing of this package. Loaded with `require` (a
 * client's constructor is synchronous): the API keeps its registered
 * providers and context keys on `globalThis`, so its CommonJS copy sees
 * what an application registered through the ES module one.
 */
import { createRequire } from 'node:module';

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
      const load = createRequire(import.meta.url);
      api = load('@opentelemetry/api') as OtelApi;
    } catch {
      api = null;
    }
  }
  return api ?? undefined;
}
