/*
 * The entry of the telemetry room: builds a client's OpenTelemetry
 * subscriber from its `telemetry` option, or nothing when telemetry is off
 * or `@opentelemetry/api` is not installed. Imports this room and the
 * observer vocabulary only.
 */
import type { TracerProvider } from '@opentelemetry/api';
import type { ClientName, Observer } from '../observe/events.js';
import { VERSION } from '../version.js';
import { ClientMetrics, SCOPE, type StatsSource } from './client-metrics.js';
import { otelApi } from './otel-api.js';
import { OtelObserver, type ServerTarget } from './otel-observer.js';
import type { TelemetrySetting } from './telemetry-options.js';

/** What a client tells the telemetry room about itself. */
export interface TelemetryTarget {
  readonly client: ClientName;
  /** Its checked base URL: `server.address` and `server.port` of its metrics. */
  readonly baseUrl: string;
  /** The client itself, for the gauges (held weakly). */
  readonly owner: StatsSource;
}

/** The OpenTelemetry subscriber of a client; `undefined` when `setting` is `false` or the API is absent. */
export function createTelemetry(setting: TelemetrySetting | undefined, target: TelemetryTarget): Observer | undefined {
  if (setting === false) return undefined;
  const api = otelApi();
  if (api === undefined) return undefined;
  const server = serverOf(target.baseUrl);
  const provider = (setting?.tracerProvider as TracerProvider | undefined) ?? api.trace.getTracerProvider();
  const metrics = new ClientMetrics(api, setting?.meterProvider, target.client, target.owner, server.address);
  return new OtelObserver(api, provider.getTracer(SCOPE, VERSION), metrics, server);
}

function serverOf(baseUrl: string): ServerTarget {
  const url = new URL(baseUrl);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  // IPv6 literals come bracketed from `URL`; the conventions want the bare address.
  return { address: url.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}
