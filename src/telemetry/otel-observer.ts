/*
 * The OpenTelemetry subscriber of the observer seam: one INTERNAL span per
 * operation (a lookup, a send), one CLIENT span per HTTP attempt under it,
 * span events for retries, breaker refusals and rate-gate pauses, and the
 * metric points of each attempt and operation. Reads events only (never the
 * clients or the transport). Imports the API types; the API is handed in.
 */
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type {
  ClientName,
  Observer,
  ObserverEvent,
  ObserverEventType,
  OperationEnd,
  OperationRef,
} from '../observe/events.js';
import { type Mask, NO_MASK, scanEnd, sendEnd } from '../observe/outcome-summary.js';
import type { ClientMetrics } from './client-metrics.js';
import type { OtelApi } from './otel-api.js';
import { urlFull } from './url-full.js';

/** The HTTP server of a client, for the duration metric. */
export interface ServerTarget {
  readonly address: string;
  readonly port: number;
}

/** What the subscriber keeps about one operation that has a recording span. */
interface OperationSpan {
  readonly span: Span;
  /** The caller's context with the operation span set: the parent of every attempt span. */
  readonly context: Context;
  attempt: Span | undefined;
}

type EventOf<T extends ObserverEvent['type']> = Extract<ObserverEvent, { type: T }>;

/** The events this subscriber reads; the hub builds no other for it. */
const TYPES: readonly ObserverEventType[] = [
  'operation:start',
  'operation:end',
  'attempt:start',
  'attempt:end',
  'cache',
  'in-flight:joined',
  'retry',
  'breaker:refused',
  'rate-gate',
];

const SPAN_NAMES: Readonly<Record<ClientName, string>> = { hashscan: 'HashScanClient.scan', sms: 'SmsClient.send' };

/** Publishes the events of one client as OpenTelemetry spans and metric points. */
export class OtelObserver implements Observer {
  readonly #api: OtelApi;
  readonly #tracer: Tracer;
  readonly #metrics: ClientMetrics;
  readonly #server: () => ServerTarget;
  readonly types = TYPES;
  readonly #operations = new WeakMap<OperationRef, OperationSpan>();
  /** Whether spans record now: a tracer provider was given, or the global one has a delegate. */
  readonly #tracing: () => boolean;
  /** The client's redactor: what an outcome shows passes through it (see `observe/outcome-summary.ts`). */
  readonly #mask: Mask;

  constructor(
    api: OtelApi,
    tracer: Tracer,
    metrics: ClientMetrics,
    server: () => ServerTarget,
    tracing: () => boolean,
    mask: Mask = NO_MASK,
  ) {
    this.#mask = mask;
    this.#api = api;
    this.#tracer = tracer;
    this.#metrics = metrics;
    this.#server = server;
    this.#tracing = tracing;
  }

  /**
   * Whether this subscriber would record anything now. Until the application
   * registers a provider (or when it never does), an operation is not
   * observed for it at all: no event is built, no span started.
   */
  active(): boolean {
    return this.#tracing() || this.#metrics.recording;
  }

  observe(event: ObserverEvent): void {
    switch (event.type) {
      case 'operation:start':
        this.#start(event.op);
        break;
      case 'operation:end':
        this.#end(event);
        break;
      case 'attempt:start':
        this.#attemptStart(event);
        break;
      case 'attempt:end':
        this.#attemptEnd(event);
        break;
      case 'cache':
        this.#event(event.op, `cache.${event.outcome}`, { 'hashscan.cache.level': event.level });
        break;
      case 'in-flight:joined':
        this.#event(event.op, 'in_flight.joined', {});
        break;
      case 'retry':
        this.#event(event.op, 'retry', {
          'retry.kind': event.kind,
          'retry.attempt': event.attempt,
          'retry.delay_ms': event.delayMs,
          'retry.reason': event.reason,
        });
        break;
      case 'breaker:refused':
        this.#event(event.op, 'circuit_breaker.refused', {});
        break;
      case 'rate-gate':
        this.#event(
          event.op,
          `rate_gate.${event.state}`,
          event.waitMs === undefined ? {} : { 'rate_gate.wait_ms': event.waitMs },
        );
        break;
      default:
        // Not among its types.
        break;
    }
  }

  /** The operation span, a child of whatever span the caller has active (events come in the caller's context). */
  #start(op: OperationRef): void {
    const { context, trace, SpanKind } = this.#api;
    const parent = context.active();
    const span = this.#tracer.startSpan(
      SPAN_NAMES[op.client],
      { kind: SpanKind.INTERNAL, attributes: operationAttributes(op) },
      parent,
    );
    // Without a provider the span records nothing: keep nothing either.
    if (!span.isRecording()) return;
    this.#operations.set(op, { span, context: trace.setSpan(parent, span), attempt: undefined });
  }

  #end(event: OperationEnd): void {
    const { op } = event;
    const outcome =
      op.client === 'hashscan' ? scanOutcome(event, this.#mask) : sendOutcome(event, op.phoneCount, this.#mask);
    const { instruments } = this.#metrics;
    if (op.client === 'hashscan') instruments.lookups.add(1, outcome.metric);
    else instruments.sends.add(1, outcome.metric);
    const state = this.#operations.get(op);
    if (state === undefined) return;
    this.#operations.delete(op);
    const { span } = state;
    span.setAttributes(outcome.span);
    if (event.error !== undefined) {
      // The code, not the message: a message may quote the caller's input.
      const code = this.#api.SpanStatusCode.ERROR;
      const type = outcome.metric['error.type'];
      span.setStatus(typeof type === 'string' ? { code, message: type } : { code });
    }
    span.end();
  }

  #attemptStart(event: EventOf<'attempt:start'>): void {
    const state = event.op === undefined ? undefined : this.#operations.get(event.op);
    if (state === undefined) return;
    const attributes: Attributes = {
      'http.request.method': event.method,
      'server.address': event.serverAddress,
      'server.port': event.serverPort,
      'url.full': urlFull(event.url),
    };
    if (event.attempt > 1) attributes['http.request.resend_count'] = event.attempt - 1;
    state.attempt?.end();
    state.attempt = this.#tracer.startSpan(
      event.method,
      { kind: this.#api.SpanKind.CLIENT, attributes },
      state.context,
    );
  }

  #attemptEnd(event: EventOf<'attempt:end'>): void {
    const errorType =
      event.status === undefined ? event.errorCode : event.status >= 400 ? String(event.status) : undefined;
    const server = this.#server();
    const metric: Attributes = {
      'http.request.method': event.method,
      'server.address': server.address,
      'server.port': server.port,
    };
    if (event.status !== undefined) metric['http.response.status_code'] = event.status;
    if (errorType !== undefined) metric['error.type'] = errorType;
    this.#metrics.instruments.duration.record(event.durationMs / 1000, metric);

    const state = event.op === undefined ? undefined : this.#operations.get(event.op);
    const span = state?.attempt;
    if (state === undefined || span === undefined) return;
    state.attempt = undefined;
    if (event.status !== undefined) span.setAttribute('http.response.status_code', event.status);
    if (event.serviceCode !== undefined) span.setAttribute(`${event.client}.service_code`, event.serviceCode);
    if (errorType !== undefined) {
      span.setAttribute('error.type', errorType);
      span.setStatus({ code: this.#api.SpanStatusCode.ERROR });
    }
    span.end();
  }

  #event(op: OperationRef | undefined, name: string, attributes: Attributes): void {
    if (op !== undefined) this.#operations.get(op)?.span.addEvent(name, attributes);
  }
}

function operationAttributes(op: OperationRef): Attributes {
  return op.client === 'hashscan'
    ? { 'hashscan.hash': op.hash, 'hashscan.hash.algorithm': op.algorithm, 'hashscan.source_id': op.sourceId }
    : { 'sms.phone_count': op.phoneCount, 'sms.template_code': op.templateCode, 'sms.method': op.method };
}

interface Outcome {
  /** Attributes of the operation span. */
  readonly span: Attributes;
  /** Attributes of the operation's counter point (low cardinality). */
  readonly metric: Attributes;
}

function scanOutcome(event: OperationEnd, mask: Mask): Outcome {
  const end = scanEnd(event, mask);
  const metric: Attributes = { 'hashscan.verdict': end.verdict, 'hashscan.cache': event.cache ?? 'none' };
  if (end.errorCode !== undefined) metric['error.type'] = end.errorCode;
  const span: Attributes = { ...metric, 'hashscan.attempts': event.attempts };
  if (end.source !== undefined) span['hashscan.detection_source'] = end.source;
  return { span, metric };
}

function sendOutcome(event: OperationEnd, phoneCount: number, mask: Mask): Outcome {
  const { outcome, errorCode, requestId } = sendEnd(event, mask);
  const metric: Attributes = { 'sms.outcome': outcome };
  if (errorCode !== undefined) metric['error.type'] = errorCode;
  const span: Attributes = { ...metric, 'sms.attempts': event.attempts };
  // At least one message per recipient: the client does not hold the template's text, so this is a floor.
  if (outcome === 'sent') span['sms.billed_messages.estimate'] = phoneCount;
  else if (outcome !== 'unknown') span['sms.billed_messages.estimate'] = 0;
  if (requestId !== undefined) span['sms.request_id'] = requestId;
  return { span, metric };
}
