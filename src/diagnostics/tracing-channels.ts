/*
 * The `node:diagnostics_channel` tracing channels this package publishes,
 * `hashscan-sms:scan` and `hashscan-sms:send`, and the subscriber of the
 * observer seam that publishes them. Imports `node:diagnostics_channel`
 * (through `util/node-builtin.ts`: a Worker without `nodejs_compat` has
 * none, and then nothing is published) and the observer vocabulary only.
 */
import type * as DiagnosticsChannel from 'node:diagnostics_channel';
import type { TracingChannel } from 'node:diagnostics_channel';
import type {
  ClientName,
  Observer,
  ObserverEvent,
  ObserverEventType,
  OperationEnd,
  OperationRef,
} from '../observe/events.js';
import { nodeBuiltin } from '../util/node-builtin.js';

/** Name of the tracing channel of lookups: one trace per looked-up hash. */
export const SCAN_CHANNEL = 'hashscan-sms:scan';
/** Name of the tracing channel of sends: one trace per `SmsClient.send()`. */
export const SEND_CHANNEL = 'hashscan-sms:send';

/**
 * The context object of a `hashscan-sms:scan` trace. `hash`, `algorithm`
 * and `sourceId` are set at `start`; `result` or `error`, `cache` and
 * `attempts` before `asyncStart`. Never holds a secret.
 */
export interface ScanTraceContext {
  /** The normalized (lower-case hex) hash. */
  readonly hash: string;
  /** Which digest the hash is, told by its length. */
  readonly algorithm: 'md5' | 'sha1' | 'sha256';
  /** The client's `sourceId`. */
  readonly sourceId: string;
  /** The `ScanResult`, on success. */
  result?: unknown;
  /** The `HashScanError`, on failure (published on `error` first). */
  error?: unknown;
  /** The cache level that answered; `undefined` when the service was asked. */
  cache?: 'memory' | 'shared' | undefined;
  /** HTTP attempts this lookup made itself (0 for a cache hit or a joined lookup). */
  attempts?: number;
}

/**
 * The context object of a `hashscan-sms:send` trace: `phoneCount`,
 * `templateCode` and `method` at `start`; `result` or `error` and `attempts`
 * before `asyncStart`. Never a phone number, a template value or a secret.
 */
export interface SendTraceContext {
  /** How many phone numbers the send goes to (never the numbers). */
  readonly phoneCount: number;
  /** The template's code, e.g. `SMS_123456789`. */
  readonly templateCode: string;
  /** The HTTP method of the send. */
  readonly method: 'GET' | 'POST';
  /** The `SendSmsResult`, on success. */
  result?: unknown;
  /** The `SmsError`, on failure (published on `error` first). */
  error?: unknown;
  /** HTTP attempts this send made. */
  attempts?: number;
}

type TraceContext = ScanTraceContext | SendTraceContext;

const channels = nodeBuiltin<typeof DiagnosticsChannel>('node:diagnostics_channel');
const scanChannel: TracingChannel<unknown, ScanTraceContext> | undefined = channels?.tracingChannel(SCAN_CHANNEL);
const sendChannel: TracingChannel<unknown, SendTraceContext> | undefined = channels?.tracingChannel(SEND_CHANNEL);

const TYPES: readonly ObserverEventType[] = ['operation:start', 'operation:end'];

/**
 * Publishes each operation on its tracing channel, in the order
 * `tracePromise` would: `start` and `end` when the operation starts (its
 * synchronous part is the start itself), then `error` (on failure),
 * `asyncStart` and `asyncEnd` when it settles. As with `tracePromise`, an
 * operation is traced only if the channel had subscribers when it started;
 * without any, an operation costs one `hasSubscribers` check.
 *
 * Unlike `tracePromise`, the operation does not run inside
 * `start.runStores()`: stores bound to the start channel are not entered.
 * Correlate by the context object, which is the same for every event of a trace.
 */
export class ChannelPublisher implements Observer {
  readonly #traces = new WeakMap<OperationRef, TraceContext>();
  readonly #channel: TracingChannel<unknown, TraceContext> | undefined;
  readonly types = TYPES;

  /** The publisher of one client's operations. */
  constructor(client: ClientName) {
    this.#channel = (client === 'hashscan' ? scanChannel : sendChannel) as
      | TracingChannel<unknown, TraceContext>
      | undefined;
  }

  /** Whether the client's channel has subscribers now: without any, its operations are not observed for it. */
  active(): boolean {
    return this.#channel?.hasSubscribers === true;
  }

  observe(event: ObserverEvent): void {
    if (event.type === 'operation:start') this.#start(event.op);
    else if (event.type === 'operation:end') this.#end(event);
  }

  #start(op: OperationRef): void {
    const channel = this.#channel;
    if (channel === undefined || !channel.hasSubscribers) return;
    const context: TraceContext =
      op.client === 'hashscan'
        ? { hash: op.hash, algorithm: op.algorithm, sourceId: op.sourceId }
        : { phoneCount: op.phoneCount, templateCode: op.templateCode, method: op.method };
    this.#traces.set(op, context);
    channel.start.publish(context);
    channel.end.publish(context);
  }

  #end(event: OperationEnd): void {
    const context = this.#traces.get(event.op);
    if (context === undefined) return;
    this.#traces.delete(event.op);
    const channel = this.#channel;
    if (channel === undefined) return;
    context.attempts = event.attempts;
    if ('sourceId' in context) context.cache = event.cache;
    if (event.error === undefined) {
      context.result = event.result;
    } else {
      context.error = event.error;
      channel.error.publish(context);
    }
    channel.asyncStart.publish(context);
    channel.asyncEnd.publish(context);
  }
}
