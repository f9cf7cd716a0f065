import { tracingChannel } from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { type Attributes, context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  type MetricData,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** A reader collected on demand (no timer). */
class ManualReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** The real OpenTelemetry SDK with in-memory exporters: a tracer and a meter provider to hand to a client. */
export interface OtelHarness {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly exporter: InMemorySpanExporter;
  /** Finished spans so far, in the order they ended. */
  spans(): ReadableSpan[];
  /** One collection of every metric. */
  metrics(): Promise<MetricData[]>;
  /** The points of one metric (none when it has none). */
  points<T = number>(name: string): Promise<DataPoint<T>[]>;
  shutdown(): Promise<void>;
}

export function otelHarness(): OtelHarness {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new ManualReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const metrics = async (): Promise<MetricData[]> => {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
  };
  return {
    tracerProvider,
    meterProvider,
    exporter,
    spans: () => exporter.getFinishedSpans(),
    metrics,
    points: async <T>(name: string) =>
      ((await metrics()).find((metric) => metric.descriptor.name === name)?.dataPoints ?? []) as DataPoint<T>[],
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

export type HistogramPoint = DataPoint<Histogram>;

/** Installs the AsyncLocalStorage context manager (once per file), so `context.with` reaches the clients. */
export function useContextManager(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

/** Every text a span or metric carries, for searching secrets in them. */
export async function telemetryText(harness: OtelHarness): Promise<string> {
  const spans = harness.spans().map((span) => ({
    name: span.name,
    attributes: span.attributes,
    status: span.status,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    links: span.links,
  }));
  const metrics = (await harness.metrics()).map((metric) => ({
    name: metric.descriptor.name,
    points: metric.dataPoints.map((point) => ({ attributes: point.attributes as Attributes, value: point.value })),
  }));
  return JSON.stringify({ spans, metrics });
}

/** What a tracing channel published until `stop()`. */
export interface ChannelCapture {
  /** The event names, in order. */
  readonly events: string[];
  /** Each event with a shallow copy of its context as it was then. */
  readonly seen: [event: string, context: Record<string, unknown>][];
  /** The contexts inspected deeply at each event, for searching secrets in them. */
  readonly texts: string[];
  stop(): void;
}

export function captureChannel(name: string): ChannelCapture {
  const texts: string[] = [];
  const events: string[] = [];
  const seen: ChannelCapture['seen'] = [];
  const channel = tracingChannel<unknown, object>(name);
  const on = (event: string) => (message: unknown) => {
    events.push(event);
    seen.push([event, { ...(message as object) }]);
    texts.push(inspect(message, { depth: 10, showHidden: true }), JSON.stringify(message));
  };
  const handlers = {
    start: on('start'),
    end: on('end'),
    asyncStart: on('asyncStart'),
    asyncEnd: on('asyncEnd'),
    error: on('error'),
  };
  channel.subscribe(handlers);
  return { texts, events, seen, stop: () => channel.unsubscribe(handlers) };
}
