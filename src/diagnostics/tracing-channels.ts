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
import { type Mask, NO_MASK, OTHER_ERROR, type SendEnd, scanEnd, sendEnd } from '../observe/outcome-summary.js';
import { nodeBuiltin } from '../util/node-builtin.js';

/** Name of the tracing channel of lookups: one trace per looked-up hash. */
export const SCAN_CHANNEL = 'hashscan-sms:scan';
/** Name of the tracing channel of sends: one trace per `SmsClient.send()`. */
export const SEND_CHANNEL = 'hashscan-sms:send';

/** What a `hashscan-sms:scan` trace carries of a `ScanResult`: the verdict, and the detection source of a hit. */
export interface ScanTraceResult {
  /** The lookup's verdict (a failed lookup publishes `error` instead). */
  readonly verdict: 'malicious' | 'not_detected';
  /** The detection source's name on a hit, when it looks like a name (secrets masked); never the raw answer. */
  readonly source?: string;
}

/** What a `hashscan-sms:send` trace carries of a `SendSmsResult`. */
export interface SendTraceResult {
  /** Always `'sent'`: a send that failed publishes `error` instead. */
  readonly outcome: 'sent';
  /** The service's `RequestId`, when it looks like an identifier. */
  readonly requestId?: string;
}

/**
 * What a trace carries of the caller's error: a fresh `Error` of the same
 * `name` (`HashScanError`, `SmsError`) with the code, the attempts and, for a
 * send, `outcome` and `requestId`. Its message is built from these alone and
 * its stack has no frames: never the original message, cause, body or
 * string-to-sign, which may quote phone numbers, template values or an
 * echoed request.
 *
 * @example
 * ```ts
 * tracingChannel('hashscan-sms:send').subscribe({
 *   start() {}, end() {}, asyncStart() {}, asyncEnd() {},
 *   error: (context) => failures.add(1, { code: context.error.code, outcome: context.error.outcome }),
 * })
 * ```
 */
export interface TraceError extends Error {
  /** The error's code (a service `Code` included); `_OTHER` when it is not an identifier. */
  readonly code: string;
  /** HTTP attempts the operation made. */
  readonly attempts: number;
  /** The HTTP status of the last answer, when there was one. */
  readonly status?: number;
  /** Sends only: whether the message may have gone out. */
  readonly outcome?: 'not_sent' | 'rejected' | 'unknown';
  /** Sends only: the service's `RequestId`, when it looks like an identifier. */
  readonly requestId?: string;
}

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
  /** What the `ScanResult` said, on success (a summary, not the result). */
  result?: ScanTraceResult;
  /** A redacted copy of the `HashScanError`, on failure (published on `error` first). */
  error?: TraceError;
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
  /** What the `SendSmsResult` said, on success (a summary, not the result). */
  result?: SendTraceResult;
  /** A redacted copy of the `SmsError`, on failure (published on `error` first). */
  error?: TraceError;
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
  readonly #mask: Mask;
  readonly types = TYPES;

  /** The publisher of one client's operations; `mask` is the client's redactor. */
  constructor(client: ClientName, mask: Mask = NO_MASK) {
    this.#channel = (client === 'hashscan' ? scanChannel : sendChannel) as
      | TracingChannel<unknown, TraceContext>
      | undefined;
    this.#mask = mask;
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
    const scan = 'sourceId' in context;
    if (scan) context.cache = event.cache;
    const end = scan ? scanEnd(event, this.#mask) : sendEnd(event, this.#mask);
    if (event.error === undefined && event.errorCode === undefined) {
      if ('outcome' in end) {
        context.result = { outcome: 'sent', ...(end.requestId === undefined ? {} : { requestId: end.requestId }) };
      } else if (end.verdict !== 'error') {
        context.result = end as ScanTraceResult;
      }
    } else {
      context.error = traceError(event, end);
      channel.error.publish(context);
    }
    channel.asyncStart.publish(context);
    channel.asyncEnd.publish(context);
  }
}

const NAME = /^\w{1,64}$/;

/** The caller's error as a trace may show it: see {@link TraceError}. */
function traceError(event: OperationEnd, end: { readonly errorCode?: string } & Partial<SendEnd>): TraceError {
  const raw = event.error as { name?: unknown; status?: unknown } | undefined;
  const name = typeof raw?.name === 'string' && NAME.test(raw.name) ? raw.name : 'Error';
  const code = end.errorCode ?? OTHER_ERROR;
  const send = end.outcome !== undefined && end.outcome !== 'sent';
  const message = send ? `the send failed: ${code} (outcome ${end.outcome})` : `the lookup failed: ${code}`;
  const copy = new Error(message);
  Object.defineProperty(copy, 'name', { value: name, enumerable: false, configurable: true });
  copy.stack = `${name}: ${message}`;
  return Object.assign(copy, {
    code,
    attempts: event.attempts,
    ...(typeof raw?.status === 'number' ? { status: raw.status } : {}),
    ...(send ? { outcome: end.outcome } : {}),
    ...(send && end.requestId !== undefined ? { requestId: end.requestId } : {}),
  }) as TraceError;
}
