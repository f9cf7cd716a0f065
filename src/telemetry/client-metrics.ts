/*
 * The metric instruments of one client: the HTTP client duration histogram,
 * the lookup and send counters, and the breaker and retry-budget gauges read
 * off the client's `stats()` at collection time. Imports the API types only;
 * the API itself is handed in.
 */
import type { Counter, Histogram, Meter, MeterProvider, ObservableCallback, ObservableGauge } from '@opentelemetry/api';
import type { ClientName } from '../observe/events.js';
import { VERSION } from '../version.js';
import type { OtelApi } from './otel-api.js';
import type { MeterProviderLike } from './telemetry-options.js';

/** The instrumentation scope of every tracer and meter of this package. */
export const SCOPE = 'hashscan-sms';

/** Buckets the HTTP conventions advise for `http.client.request.duration`, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const CIRCUIT_STATES = ['closed', 'half-open', 'open'] as const;

/** What the gauges read: a client's own counters (its public `stats()`). */
export interface StatsSource {
  stats(): { readonly circuit: string; readonly retryTokens: number | undefined };
}

/** One meter's instruments for one client. */
export interface Instruments {
  readonly duration: Histogram;
  readonly lookups: Counter;
  readonly sends: Counter;
}

/**
 * The instruments of one client, on the meter provider given in the options
 * or, when none was, on the global one as it is at each use: an application
 * may register its provider after building the client, and the metrics API
 * (unlike the trace API) hands out no proxy that would follow it.
 */
export class ClientMetrics {
  readonly #api: OtelApi;
  readonly #fixed: MeterProvider | undefined;
  readonly #client: ClientName;
  readonly #owner: WeakRef<StatsSource>;
  readonly #serverAddress: () => string;
  #provider: MeterProvider | undefined;
  #instruments: Instruments | undefined;
  /** Whether {@link #provider} is a real one (not the API's no-op, in place until one is registered). */
  #recording = false;

  constructor(
    api: OtelApi,
    provider: MeterProviderLike | undefined,
    client: ClientName,
    owner: StatsSource,
    serverAddress: () => string,
  ) {
    this.#api = api;
    this.#fixed = provider as MeterProvider | undefined;
    this.#client = client;
    // Weak: a meter outlives the clients it observes; a client dropped by the application is not kept.
    this.#owner = new WeakRef(owner);
    this.#serverAddress = serverAddress;
    // The gauges report from the start, before the first operation.
    void this.instruments;
  }

  /** The instruments on the current provider (built again when the global provider changed). */
  get instruments(): Instruments {
    const provider = this.#fixed ?? this.#api.metrics.getMeterProvider();
    if (this.#instruments === undefined || provider !== this.#provider) {
      this.#provider = provider;
      const meter = provider.getMeter(SCOPE, VERSION);
      this.#recording = meter !== this.#api.createNoopMeter();
      this.#instruments = this.#build(meter);
    }
    return this.#instruments;
  }

  /** Whether points would be recorded now: a meter provider was given or registered. */
  get recording(): boolean {
    void this.instruments;
    return this.#recording;
  }

  #build(meter: Meter): Instruments {
    const { ValueType } = this.#api;
    const breaker = meter.createObservableGauge('hashscan_sms.circuit_breaker.state', {
      description: 'State of the client circuit breaker: 1 for the current state, 0 for the others',
      unit: '{state}',
      valueType: ValueType.INT,
    });
    const tokens = meter.createObservableGauge('hashscan_sms.retry_budget.tokens', {
      description: 'Tokens left in the client retry budget',
      unit: '{token}',
      valueType: ValueType.DOUBLE,
    });
    this.#watch(breaker, (result, base) => {
      const { circuit } = base.stats;
      if (!CIRCUIT_STATES.some((state) => state === circuit)) return; // `disabled`: no breaker to report
      for (const state of CIRCUIT_STATES) {
        result.observe(state === circuit ? 1 : 0, { ...base.attributes, 'circuit_breaker.state': state });
      }
    });
    this.#watch(tokens, (result, base) => {
      if (base.stats.retryTokens !== undefined) result.observe(base.stats.retryTokens, base.attributes);
    });
    return {
      duration: meter.createHistogram('http.client.request.duration', {
        description: 'Duration of HTTP client requests (one per attempt)',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      }),
      lookups: meter.createCounter('hashscan.lookups', {
        description: 'Hash lookups, by verdict and the cache level that answered',
        unit: '{lookup}',
        valueType: ValueType.INT,
      }),
      sends: meter.createCounter('sms.sends', {
        description: 'SMS sends, by outcome',
        unit: '{send}',
        valueType: ValueType.INT,
      }),
    };
  }

  /** Adds a gauge callback that reads the client's stats while the client lives, and removes itself after. */
  #watch(
    gauge: ObservableGauge,
    read: (
      result: Parameters<ObservableCallback>[0],
      base: {
        stats: ReturnType<StatsSource['stats']>;
        attributes: Record<string, string>;
      },
    ) => void,
  ): void {
    const callback: ObservableCallback = (result) => {
      const owner = this.#owner.deref();
      if (owner === undefined) {
        gauge.removeCallback(callback);
        return;
      }
      const attributes = { 'hashscan_sms.client': this.#client, 'server.address': this.#serverAddress() };
      read(result, { stats: owner.stats(), attributes });
    };
    gauge.addCallback(callback);
  }
}
