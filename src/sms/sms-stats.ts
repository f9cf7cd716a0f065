import type { SmsFleetStats } from '../fleet-plugin/fleet-stats.js';
import type { SmsLimitsStats } from '../limits/send-limits.js';
import type { TransportStats } from '../transport/resilience/resilience.js';

/** Counters of `SmsClient.stats()`: the transport's, and the fleet's when `fleet` is set. */
export interface SmsStats extends TransportStats {
  /** Fleet counters; `undefined` without the `fleet` option. */
  readonly fleet?: SmsFleetStats | undefined;
  /** Counters of the sending limits; `undefined` without the `limits` option. */
  readonly limits?: SmsLimitsStats | undefined;
}
