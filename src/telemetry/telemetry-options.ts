/*
 * The `telemetry` option of both clients: its public types and its check.
 * Imports only the configuration error; never `@opentelemetry/api` itself
 * (the types below are structural, so a project without the package still
 * compiles against ours).
 */
import { ConfigurationError } from '../errors/configuration-error.js';

/**
 * An OpenTelemetry `TracerProvider` (from `@opentelemetry/api`), typed
 * structurally so that this package's types do not need the API installed.
 */
export interface TracerProviderLike {
  /** Returns the tracer of an instrumentation scope. */
  getTracer(name: string, version?: string): object;
}

/** An OpenTelemetry `MeterProvider` (from `@opentelemetry/api`), typed structurally. */
export interface MeterProviderLike {
  /** Returns the meter of an instrumentation scope. */
  getMeter(name: string, version?: string): object;
}

/**
 * Where a client sends its OpenTelemetry spans and metrics. Either provider
 * left out means the global one the application registered (`NodeSDK`,
 * `trace.setGlobalTracerProvider`, `metrics.setGlobalMeterProvider`).
 *
 * Needs the optional peer dependency `@opentelemetry/api` (^1.9): without it
 * installed, telemetry is off and costs nothing.
 *
 * @example
 * ```ts
 * const client = new HashScanClient({ telemetry: { tracerProvider, meterProvider } })
 * ```
 */
export interface TelemetryOptions {
  /** @defaultValue the global tracer provider (`trace.getTracerProvider()`) */
  readonly tracerProvider?: TracerProviderLike | undefined;
  /** @defaultValue the global meter provider (`metrics.getMeterProvider()`), read at each operation */
  readonly meterProvider?: MeterProviderLike | undefined;
}

/**
 * The `telemetry` option: `false` turns OpenTelemetry off for this client,
 * an object names the providers, left out means the global providers.
 * `diagnostics_channel` publishing does not depend on it.
 */
export type TelemetrySetting = false | TelemetryOptions;

/** Checks the `telemetry` option; `undefined` means the global providers. */
export function checkTelemetry(value: unknown): TelemetrySetting | undefined {
  if (value === undefined || value === false) return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigurationError('telemetry', 'must be false or { tracerProvider?, meterProvider? }');
  }
  const { tracerProvider, meterProvider } = value as Record<string, unknown>;
  if (tracerProvider !== undefined && !hasMethod(tracerProvider, 'getTracer')) {
    throw new ConfigurationError('telemetry', 'tracerProvider must have a getTracer() method');
  }
  if (meterProvider !== undefined && !hasMethod(meterProvider, 'getMeter')) {
    throw new ConfigurationError('telemetry', 'meterProvider must have a getMeter() method');
  }
  return value as TelemetryOptions;
}

function hasMethod(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[name] === 'function';
}
