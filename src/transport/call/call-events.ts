import type { ClientName, ObserverEvent } from '../../observe/events.js';
import type { Observers } from '../../observe/observers.js';
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
function breakerEvent(client: ClientName, key: string, { state, reason, openMs }: Transition): ObserverEvent {
  return { type: 'breaker', client, state, key, reason, ...(openMs === undefined ? {} : { openMs }) };
}

/** The resilience layer's listeners: each breaker transition and each new `Retry-After` pause, as events. */
export function gateListeners(
  observers: Observers,
  client: ClientName,
): { onBreaker: (key: string, change: Transition) => void; onPause: (pauseMs: number) => void } {
  return {
    onBreaker: (key, change) => {
      if (observers.listens('breaker')) observers.emit(breakerEvent(client, key, change));
    },
    onPause: (pauseMs) => {
      if (observers.listens('pause')) observers.emit({ type: 'pause', client, source: 'retry-after', pauseMs });
    },
  };
}
