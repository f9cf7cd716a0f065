import type { Observer, ObserverEvent, ObserverEventType } from './events.js';
import { attemptLine, emitLine, type LogFields, type Logger, silentLogger } from './logger.js';

/** At most one store or rejected-entry line per this interval; the others are counted in the next one. */
const STORE_LOG_INTERVAL_MS = 60_000;

const LOGGED: readonly ObserverEventType[] = [
  'attempt:end',
  'retry',
  'clock',
  'store:failed',
  'store',
  'breaker',
  'cache:rejected',
  'fleet',
  'fleet:offline-queue',
  'pause',
];

/**
 * The logger as a subscriber of the observer seam: every log line of both
 * clients and of the shared store is written here, from the events, so a
 * line and a span or a channel message always tell the same story. The
 * default silent logger subscribes to nothing (a client without a logger
 * builds no event).
 */
export function logSubscriber(logger: Logger): Observer | undefined {
  if (logger === silentLogger) return undefined;
  let storeLoggedAt = Number.NEGATIVE_INFINITY;
  let storeUnlogged = 0;
  let rejectLoggedAt = Number.NEGATIVE_INFINITY;
  return {
    types: LOGGED,
    observe(event: ObserverEvent): void {
      switch (event.type) {
        case 'attempt:end': {
          const fields: LogFields = {
            client: event.client,
            method: event.method,
            url: event.url,
            ...(event.status === undefined ? {} : { status: event.status }),
            ...(event.errorCode === undefined ? {} : { code: event.errorCode }),
            ...(event.serviceCode === undefined ? {} : { serviceCode: event.serviceCode }),
            ...(event.hint === undefined ? {} : { hint: event.hint }),
            durationMs: Math.round(event.durationMs),
            attempt: event.attempt,
          };
          const level = event.status !== undefined && event.status < 300 ? 'debug' : 'warn';
          emitLine(logger, level, attemptLine(event.client, fields), fields);
          return;
        }
        case 'retry':
          if (event.kind === 'backoff') {
            emitLine(logger, 'info', `${event.client}: retrying in ${event.delayMs} ms`, {
              client: event.client,
              attempt: event.attempt,
              delayMs: event.delayMs,
              code: event.reason,
            });
          } else {
            const what = event.kind === 'resign' ? 're-signing it once' : 'asking for credentials again';
            emitLine(logger, 'info', `${event.client}: the service refused the request with ${event.reason}; ${what}`, {
              client: event.client,
              attempt: event.attempt,
              code: event.reason,
            });
          }
          return;
        case 'clock':
          emitLine(
            logger,
            'info',
            `${event.client}: the service's clock differs from ours; timestamps now corrected by ${event.offsetMs} ms`,
            { client: event.client, clockOffsetMs: event.offsetMs },
          );
          return;
        case 'fleet':
          fleetLine(logger, event);
          break;
        case 'pause': {
          const whose = event.source === 'fleet' ? "the fleet's pause (read from Redis)" : "the service's Retry-After";
          emitLine(
            logger,
            'warn',
            `${event.client}: ${whose} holds every attempt for ${event.pauseMs} ms; a call whose totalTimeoutMs cannot wait that long ends at once with TIMEOUT and retryAfterMs`,
            { client: event.client, source: event.source, pauseMs: event.pauseMs },
          );
          return;
        }
        case 'fleet:offline-queue':
          emitLine(
            logger,
            'warn',
            `${event.client}: the fleet's Redis client queues commands while disconnected; create it with { ${event.setting} } so an outage fails fast and nothing is replayed later`,
            { client: event.client, reason: 'FLEET_OFFLINE_QUEUE' },
          );
          break;
        case 'store:failed': {
          const now = performance.now();
          if (now - storeLoggedAt < STORE_LOG_INTERVAL_MS) {
            storeUnlogged += 1;
            return;
          }
          emitLine(
            logger,
            'warn',
            `${event.client}: shared cache store ${event.operation} failed (${event.code}); lookups go to the service meanwhile`,
            { client: event.client, code: event.code, reason: event.reason, failuresNotLogged: storeUnlogged },
          );
          storeLoggedAt = now;
          storeUnlogged = 0;
          return;
        }
        case 'store': {
          const client = event.client ?? 'hashscan';
          if (event.state === 'resumed') {
            emitLine(logger, 'info', `${client}: shared cache store answers again; lookups use it again`, {
              client,
              state: 'resumed',
            });
          } else {
            emitLine(
              logger,
              'warn',
              `${client}: shared cache store failing (${event.reason}); skipped for ${event.backoffMs} ms, then probed by one call at a time; lookups go to the service meanwhile`,
              {
                client,
                state: 'skipping',
                ...(event.reason === undefined ? {} : { reason: event.reason }),
                ...(event.backoffMs === undefined ? {} : { openMs: event.backoffMs }),
              },
            );
          }
          return;
        }
        case 'breaker': {
          const { client, key, state, reason, openMs } = event;
          const what =
            state === 'open'
              ? `circuit for ${key} opened (${reason}); calls refused with CIRCUIT_OPEN for ${openMs} ms`
              : state === 'half-open'
                ? `circuit for ${key} half-open (${reason}); letting probe calls through`
                : `circuit for ${key} closed (${reason})`;
          const fields: LogFields = {
            client,
            state,
            ...(key === undefined ? {} : { circuit: key }),
            ...(reason === undefined ? {} : { reason }),
            ...(openMs === undefined ? {} : { openMs }),
          };
          emitLine(logger, state === 'open' ? 'warn' : 'info', `${client}: ${what}`, fields);
          return;
        }
        case 'cache:rejected': {
          const now = performance.now();
          if (now - rejectLoggedAt < STORE_LOG_INTERVAL_MS) return;
          rejectLoggedAt = now;
          emitLine(
            logger,
            'warn',
            `${event.client}: ignored a shared cache entry for ${event.hash} (${event.reason}); asking the service`,
            { client: event.client, reason: event.reason },
          );
          return;
        }
        default:
          return;
      }
    },
  };
}

/** The fleet's Redis failed or answers again, as seen by the fleet's coordination or by the sending limits' own link. */
/** What a feature with its own link does while Redis fails, and when it answers again. */
const FLEET_MEANWHILE = {
  fleet: ['each replica runs on its own until it answers again', 'fleet coordination resumed'],
  limits: [
    'the sending limits count on this replica, or refuse (onStoreFailure), until it answers again',
    'the sending limits count in Redis again',
  ],
  verification: [
    'verification codes are neither sent nor checked (VERIFICATION_UNAVAILABLE), and the pumping guard counts on this replica, until it answers again',
    'verification codes are kept in Redis again',
  ],
} as const;

function fleetLine(logger: Logger, event: Extract<ObserverEvent, { type: 'fleet' }>): void {
  const [meanwhile, resumed] = FLEET_MEANWHILE[event.use ?? 'fleet'];
  const fields = { client: event.client, ...(event.use !== undefined && { use: event.use }) };
  if (event.state === 'unavailable') {
    emitLine(logger, 'warn', `${event.client}: the fleet's Redis failed (${event.code ?? 'error'}); ${meanwhile}`, {
      ...fields,
      code: event.code ?? 'error',
      reason: 'FLEET_UNAVAILABLE',
    });
  } else {
    emitLine(logger, 'info', `${event.client}: the fleet's Redis answers again; ${resumed}`, {
      ...fields,
      reason: 'FLEET_RESUMED',
    });
  }
}
