/*
 * What a fleet counts for `stats().fleet` of each client: typed here, beside
 * the plugin contract, so the clients read them without importing `fleet/`.
 */

/**
 * Counters of the fleet features of one client (`stats().fleet`), cheap to
 * read and free of secrets.
 *
 * @example
 * ```ts
 * const { redisErrors, lookupsJoined } = client.stats().fleet ?? {}
 * ```
 */
export interface FleetStats {
  /** Redis calls that failed or took longer than `fleet.timeoutMs`. */
  readonly redisErrors: number;
  /** Redis calls not made while the fleet stepped aside after a failure. */
  readonly redisSkipped: number;
  /** Attempts held by the fleet's pause or quota, counted as each hold starts. */
  readonly held: number;
  /** How long those attempts were held in all, in ms (a hold counts once it ends). */
  readonly heldMs: number;
  /** Attempts held by the fleet's pause or quota right now. */
  readonly holding: number;
  /** When the fleet's pause, as this replica last read it, ends (ms since the epoch); `undefined` when none is in force. */
  readonly pausedUntil: number | undefined;
  /**
   * Values read from Redis out of range (a pause or lock longer than its cap
   * or without expiry, a quota counter no replica could have made): never
   * obeyed, each counted as a Redis failure (also in `redisErrors`).
   */
  readonly redisOutOfRange: number;
  /** `429` pauses this replica told the fleet about. */
  readonly pausesReported: number;
  /** Lookups this replica made as the fleet's owner of the hash. */
  readonly lookupsOwned: number;
  /** Lookups answered by another replica's request. */
  readonly lookupsJoined: number;
  /** Waits for another replica that ended with asking the service itself. */
  readonly lookupWaitsGivenUp: number;
}

/**
 * Fleet counters of `SmsClient.stats()`: the Redis link's, the shared
 * `429` pause and quota's, and the limits' refusals (the lookups' counters of
 * `HashScanClient` mean nothing for sends and are not here). The limits'
 * own counters are `stats().limits`.
 *
 * @example
 * ```ts
 * const { redisErrors, held } = sms.stats().fleet ?? {}
 * ```
 */
export interface SmsFleetStats {
  /** Redis calls that failed or took longer than `fleet.timeoutMs`. */
  readonly redisErrors: number;
  /** Redis calls not made while the fleet stepped aside after a failure. */
  readonly redisSkipped: number;
  /** Values read from Redis out of range (a forged pause or quota counter): never obeyed, also in `redisErrors`. */
  readonly redisOutOfRange: number;
  /** Attempts held by the fleet's pause or quota. */
  readonly held: number;
  /** How long those attempts were held in all, in ms. */
  readonly heldMs: number;
  /** Sends held by the fleet's pause or quota right now (a forged pause holds sends too). */
  readonly holding: number;
  /** When the fleet's pause, as this replica last read it, ends (ms since the epoch); `undefined` when none is in force. */
  readonly pausedUntil: number | undefined;
  /** `429` pauses this replica told the fleet about. */
  readonly pausesReported: number;
  /** Sends refused by `limits` (`SEND_LIMITED`), none of them sent (the same as `stats().limits.refused`). */
  readonly sendsLimited: number;
}
