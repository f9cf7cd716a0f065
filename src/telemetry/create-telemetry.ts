/*
 * The entry of the telemetry room: builds a client's OpenTelemetry
 * subscriber from its `telemetry` option, or nothing when telemetry is off
 * or `@opentelemetry/api` is not installed. Imports this room and the
 * observer vocabulary only.
 */
import type { TracerProvider } from '@opentelemetry/api';
import type { ClientName, Observer } from '../observe/events.js';
import type { Mask } from '../observe/outcome-summary.js';
import { VERSION } from '../version.js';
import { ClientMetrics, SCOPE, type StatsSource } from './client-metrics.js';
import { type OtelApi, otelApi } from './otel-api.js';
import { OtelObserver, type ServerTarget } from './otel-observer.js';
import type { TelemetrySetting } from './telemetry-options.js';

/** What a client tells the telemetry room about itself. */
export interface TelemetryTarget {
  readonly client: ClientName;
  /** Its checked base URL (read on first use): `server.address` and `server.port` of its metrics. */
  readonly baseUrl: () => string;
  /** The client itself, for the gauges (held weakly). */
  readonly owner: StatsSource;
  /** The client's redactor, for what spans show of an outcome. @defaultValue none (shape checks only) */
  readonly redact?: Mask | undefined;
}

/** The OpenTelemetry subscriber of a client; `undefined` when `setting` is `false` or the API is absent. */
export function createTelemetry(
  setting: TelemetrySetting | undefined,
  target: TelemetryTarget,
): (Observer & { active(): boolean }) | undefined {
  if (setting === false) return undefined;
  const api = otelApi();
  if (api === undefined) return undefined;
  let known: ServerTarget | undefined;
  const server = (): ServerTarget => {
    known ??= serverOf(target.baseUrl());
    return known;
  };
  const given = setting?.tracerProvider as TracerProvider | undefined;
  const provider = given ?? api.trace.getTracerProvider();
  const metrics = new ClientMetrics(api, setting?.meterProvider, target.client, target.owner, () => server().address);
  return new OtelObserver(
    api,
    provider.getTracer(SCOPE, VERSION),
    metrics,
    server,
    given ? always : globalTracing(api),
    target.redact,
  );
}

const always = (): boolean => true;

/**
 * Whether the global tracer provider has a real delegate: the API hands out a
 * proxy whose delegate is its no-op provider until one is registered (the
 * no-op's identity is read off a fresh proxy).
 */
function globalTracing(api: OtelApi): () => boolean {
  const noop = new api.ProxyTracerProvider().getDelegate();
  return () => {
    const global = api.trace.getTracerProvider();
    return !(global instanceof api.ProxyTracerProvider) || global.getDelegate() !== noop;
  };
}

function serverOf(baseUrl: string): ServerTarget {
  const url = new URL(baseUrl);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  // IPv6 literals come bracketed from `URL`; the conventions want the bare address.
  return { address: url.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}
