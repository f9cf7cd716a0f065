import type { OperationRef } from '../../observe/events.js';
import type { Observers } from '../../observe/observers.js';
import { onAbort } from '../../util/abort-subscriptions.js';
import type { Sending } from '../http/sending.js';
import type { BreakerTicket, Resilience } from '../resilience/resilience.js';
import { attemptFailure } from './attempt-failure.js';
import { type Deadline, overBudgetFailure } from './deadline.js';
import type { Exchange, IncomingResponse, OutgoingRequest, TransportSettings } from './exchange.js';

/** What one attempt needs of its transport. */
export interface AttemptContext {
  readonly settings: TransportSettings;
  readonly resilience: Resilience;
  readonly observers: Observers;
  /** Starts the request on the way chosen at construction (ky over `fetch`, or the dispatcher). */
  readonly start: (url: string, request: OutgoingRequest, attempt: number) => Sending;
  /** Host and port of the base URL, for `attempt:start` events. */
  readonly server: { readonly address: string; readonly port: number };
}

/**
 * Sends one request and waits for its whole response, under the attempt's
 * own time-out (cut to what is left of the call's budget) and the caller's
 * signal, reporting `attempt:start`/`attempt:end` to whoever observes them.
 * Not `async`: one `then` per attempt, no frame.
 */
export function sendAttempt(
  context: AttemptContext,
  exchange: Exchange<unknown>,
  request: OutgoingRequest,
  attempt: number,
  deadline: Deadline | undefined,
  ticket: BreakerTicket,
): Promise<IncomingResponse> {
  const { settings, observers, resilience } = context;
  const { signal } = exchange;
  const url = settings.baseUrl + request.path;
  const left = deadline?.remaining() ?? Number.POSITIVE_INFINITY;
  const timeoutMs = Math.min(settings.timeoutMs, left);
  const observed = observers.listens('attempt:end');
  if (observers.listens('attempt:start')) {
    observers.emit({
      type: 'attempt:start',
      client: settings.name,
      op: exchange.op,
      attempt,
      method: request.method,
      url: settings.redact(url),
      serverAddress: context.server.address,
      serverPort: context.server.port,
    });
  }
  const started = observed ? performance.now() : 0;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;
  const failed = (error: unknown): never => {
    clearTimeout(timer);
    unsubscribe?.();
    const overBudget = timedOut && deadline !== undefined && timeoutMs === left;
    const failure = overBudget
      ? overBudgetFailure(deadline, attempt, 'unknown')
      : attemptFailure(error, attempt, {
          timedOut,
          timeoutMs: settings.timeoutMs,
          reason: signal?.reason,
          callerAborted: signal?.aborted === true,
          redact: settings.redact,
        });
    if (observed) attemptEnd(context, exchange.op, request.method, url, attempt, started, { errorCode: failure.code });
    // The call's budget or the caller cut it short: that says nothing about the service.
    const cutByCaller = overBudget || signal?.aborted === true;
    throw resilience.failed(ticket, failure.code, exchange.fail(failure), cutByCaller);
  };
  let sending: Sending;
  resilience.sent();
  try {
    sending = context.start(url, request, attempt);
  } catch (error) {
    return Promise.reject(error).catch(failed);
  }
  timer = setTimeout(() => {
    timedOut = true;
    sending.abort(new Error('timed out'));
  }, timeoutMs);
  if (signal !== undefined) unsubscribe = onAbort(signal, () => sending.abort(signal.reason));
  // Rejects as soon as the attempt is cut short, even if a custom fetch ignores its signal.
  return sending.response.then((response) => {
    clearTimeout(timer);
    unsubscribe?.();
    if (observed) {
      const { status, text } = response;
      attemptEnd(context, exchange.op, request.method, url, attempt, started, { status, text });
    }
    return response;
  }, failed);
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
