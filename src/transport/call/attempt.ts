import type { OperationRef } from '../../observe/events.js';
import type { Observers } from '../../observe/observers.js';
import { onAbort } from '../../util/abort-subscriptions.js';
import type { Sending } from '../http/wire.js';
import type { BreakerTicket, Resilience } from '../resilience/resilience.js';
import { attemptFailure } from './attempt-failure.js';
import { type Deadline, overBudgetFailure } from './deadline.js';
import type { Exchange, IncomingResponse, OutgoingRequest, TransportSettings } from './exchange.js';

/** What one attempt needs of its transport. */
export interface AttemptContext {
  readonly settings: TransportSettings;
  readonly resilience: Resilience;
  readonly observers: Observers;
  /** Host and port of the base URL, for `attempt:start` events. */
  readonly server: { readonly address: string; readonly port: number };
}

/**
 * One attempt, watched: opened just before its request starts (reports
 * `attempt:start`, counts the request), then {@link watch}es the request
 * under the attempt's own time-out (cut to what is left of the call's
 * budget) and the caller's signal, reporting `attempt:end`; {@link failed}
 * turns whatever went wrong into the client's error. The transport starts
 * the request itself between the two, so the sender runs one frame below
 * the transport's loop.
 */
export class Attempt {
  readonly #context: AttemptContext;
  readonly #exchange: Exchange<unknown>;
  readonly #method: 'GET' | 'POST';
  readonly #number: number;
  readonly #deadline: Deadline | undefined;
  readonly #ticket: BreakerTicket;
  /** What is left of the call's budget when the attempt starts. */
  readonly #left: number;
  readonly #timeoutMs: number;
  readonly #observed: boolean;
  readonly #started: number;
  #timedOut = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #unsubscribe: (() => void) | undefined;
  /** The request's full URL. */
  readonly url: string;

  constructor(
    context: AttemptContext,
    exchange: Exchange<unknown>,
    request: OutgoingRequest,
    attempt: number,
    deadline: Deadline | undefined,
    ticket: BreakerTicket,
  ) {
    const { settings, observers } = context;
    this.#context = context;
    this.#exchange = exchange;
    this.#method = request.method;
    this.#number = attempt;
    this.#deadline = deadline;
    this.#ticket = ticket;
    this.url = settings.baseUrl + request.path;
    this.#left = deadline?.remaining() ?? Number.POSITIVE_INFINITY;
    this.#timeoutMs = Math.min(settings.timeoutMs, this.#left);
    this.#observed = observers.listens('attempt:end');
    if (observers.listens('attempt:start')) {
      observers.emit({
        type: 'attempt:start',
        client: settings.name,
        op: exchange.op,
        attempt,
        method: request.method,
        url: settings.redact(this.url),
        serverAddress: context.server.address,
        serverPort: context.server.port,
      });
    }
    this.#started = this.#observed ? performance.now() : 0;
    context.resilience.sent();
  }

  /** The whole response of the request on its way; rejects as soon as the attempt is cut short. */
  watch(sending: Sending): Promise<IncomingResponse> {
    const { signal } = this.#exchange;
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      sending.abort(new Error('timed out'));
    }, this.#timeoutMs);
    if (signal !== undefined) this.#unsubscribe = onAbort(signal, () => sending.abort(signal.reason));
    return sending.response.then(
      (response) => {
        clearTimeout(this.#timer);
        this.#unsubscribe?.();
        if (this.#observed) this.#end({ status: response.status, text: response.text });
        return response;
      },
      (error: unknown) => this.failed(error),
    );
  }

  /** The client's error for this attempt's failure (the breaker and observers told). */
  failed(error: unknown): never {
    clearTimeout(this.#timer);
    this.#unsubscribe?.();
    const { settings, resilience } = this.#context;
    const { signal } = this.#exchange;
    const deadline = this.#deadline;
    const overBudget = this.#timedOut && deadline !== undefined && this.#timeoutMs === this.#left;
    const failure = overBudget
      ? overBudgetFailure(deadline, this.#number, 'unknown')
      : attemptFailure(error, this.#number, {
          timedOut: this.#timedOut,
          timeoutMs: settings.timeoutMs,
          reason: signal?.reason,
          callerAborted: signal?.aborted === true,
          redact: settings.redact,
        });
    if (this.#observed) this.#end({ errorCode: failure.code });
    // The call's budget or the caller cut it short: that says nothing about the service.
    const cutByCaller = overBudget || signal?.aborted === true;
    throw resilience.failed(this.#ticket, failure.code, this.#exchange.fail(failure), cutByCaller);
  }

  #end(outcome: { status?: number; text?: string; errorCode?: string }): void {
    const { op } = this.#exchange;
    attemptEnd(this.#context, op, this.#method, this.url, this.#number, this.#started, outcome);
  }
}

/** The `attempt:end` event: redacted URL, status or error code, the service's code and hint off the body. */
function attemptEnd(
  context: AttemptContext,
  op: OperationRef | undefined,
  method: 'GET' | 'POST',
  url: string,
  attempt: number,
  started: number,
  outcome: { status?: number; text?: string; errorCode?: string },
): void {
  const { name, redact, describeResponse } = context.settings;
  const note =
    outcome.status !== undefined && outcome.text !== undefined
      ? describeResponse?.(outcome.status, outcome.text)
      : undefined;
  context.observers.emit({
    type: 'attempt:end',
    client: name,
    op,
    attempt,
    method,
    url: redact(url),
    ...(outcome.status === undefined ? {} : { status: outcome.status }),
    ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
    ...(note?.serviceCode === undefined ? {} : { serviceCode: redact(note.serviceCode) }),
    ...(note?.hint === undefined ? {} : { hint: note.hint }),
    durationMs: performance.now() - started,
  });
}
