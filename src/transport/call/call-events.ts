import type { ClientName, ObserverEvent } from '../../observe/events.js';
import type { Transition } from '../resilience/circuit-breaker.js';
import type { Exchange, ExtraRound } from './exchange.js';

/** The `retry` event of a call: a back-off retry, or an extra round of its exchange. */
export function retryEvent(
  client: ClientName,
  exchange: Exchange<unknown>,
  attempt: number,
  error: unknown,
  delayMs: number,
  kind: 'backoff' | ExtraRound,
): ObserverEvent {
  const code = (error as { code?: unknown } | undefined)?.code;
  return {
    type: 'retry',
    client,
    op: exchange.op,
    attempt,
    delayMs,
    reason: typeof code === 'string' ? code : 'unknown',
    kind,
  };
}

/** The `breaker` event of one circuit breaker's transition (reported once: the logger is a subscriber). */
export function breakerEvent(client: ClientName, key: string, { state, reason, openMs }: Transition): ObserverEvent {
  return { type: 'breaker', client, state, key, reason, ...(openMs === undefined ? {} : { openMs }) };
}
