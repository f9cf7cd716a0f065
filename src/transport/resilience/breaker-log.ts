import { emitLine, type Logger } from '../logger.js';
import type { BreakerListener } from './resilience.js';

/**
 * One log line per circuit breaker transition: `warn` when a circuit opens
 * (calls are refused from now on), `info` when it lets probes through or closes.
 */
export function breakerLogger(logger: Logger, name: string): BreakerListener {
  return (key, { state, reason, openMs }) => {
    const what =
      state === 'open'
        ? `circuit for ${key} opened (${reason}); calls refused with CIRCUIT_OPEN for ${openMs} ms`
        : state === 'half-open'
          ? `circuit for ${key} half-open (${reason}); letting probe calls through`
          : `circuit for ${key} closed (${reason})`;
    emitLine(logger, state === 'open' ? 'warn' : 'info', `${name}: ${what}`, {
      client: name,
      circuit: key,
      state,
      reason,
      ...(openMs === undefined ? {} : { openMs }),
    });
  };
}
