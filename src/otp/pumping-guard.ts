/*
 * The pumping guard: SMS pumping (toll fraud) sends codes to many numbers of
 * one premium or foreign range, and nobody ever types them in. So the guard
 * counts, per destination prefix (the first digits of E.164: country code and
 * range), the codes sent in a window and those checked valid; once the
 * unverified ones reach `maxUnverified` while fewer than `minConversionRate`
 * of the sends were verified, the prefix is suspended for `suspendMs`. Other
 * prefixes are not touched, and a busy prefix whose users do verify stays open.
 */

/**
 * The pumping guard of `OtpVerifier` (on by default; `pumpingGuard: false`
 * turns it off).
 *
 * @example
 * ```ts
 * new OtpVerifier({ sms, templateCode: 'SMS_1', pumpingGuard: { prefixDigits: 6, maxUnverified: 50 } })
 * ```
 */
export interface PumpingGuardOptions {
  /**
   * Digits of the E.164 number (after `+`, country code included) that make
   * a destination prefix: 7 is `86` and five national digits in China.
   * @defaultValue 7
   */
  readonly prefixDigits?: number | undefined;
  /**
   * The window codes are counted in, from a prefix's first send in it, in ms.
   * @defaultValue 3_600_000 (one hour)
   */
  readonly windowMs?: number | undefined;
  /**
   * Unverified codes a prefix may have in the window (with a conversion below
   * `minConversionRate`) before it is suspended.
   * @defaultValue 30
   */
  readonly maxUnverified?: number | undefined;
  /**
   * The share of a prefix's sends that must be verified for it to stay open
   * past `maxUnverified` unverified codes (0 to 1).
   * @defaultValue 0.5
   */
  readonly minConversionRate?: number | undefined;
  /**
   * How long a suspended prefix refuses sends (`DESTINATION_SUSPENDED`), in ms.
   * @defaultValue 3_600_000 (one hour)
   */
  readonly suspendMs?: number | undefined;
}

/** The guard's rules, defaults filled in. */
export interface GuardRules {
  readonly prefixDigits: number;
  readonly windowMs: number;
  readonly maxUnverified: number;
  readonly minConversionRate: number;
  readonly suspendMs: number;
}

/** Whether a prefix may have one more code sent, or how long it stays suspended. */
export type Admission = { readonly kind: 'admitted' } | { readonly kind: 'suspended'; readonly retryAfterMs: number };

/** The guard as the verifier uses it: in memory, or shared through the fleet's Redis. */
export interface PumpingGuard {
  /** Counts a send to `prefix`, or refuses it while the prefix is suspended (or suspends it now). */
  admit(prefix: string, now: number): Promise<Admission>;
  /** A send admitted but not made (refused, nothing sent): it does not count. */
  giveBack(prefix: string, now: number): Promise<void>;
  /** A code of `prefix` was checked valid. */
  verified(prefix: string, now: number): Promise<void>;
}

/** The destination prefix of an E.164 number. */
export const destinationPrefix = (e164: string, rules: GuardRules): string =>
  e164.replace('+', '').slice(0, rules.prefixDigits);

/** Whether `sent` codes of which `verified` were checked valid are pumping by `rules`. */
function looksPumped(sent: number, verified: number, rules: GuardRules): boolean {
  return sent - Math.min(verified, sent) >= rules.maxUnverified && verified < sent * rules.minConversionRate;
}

interface PrefixWindow {
  sent: number;
  verified: number;
  readonly endsAt: number;
  suspendedUntil: number;
}

/** Prefixes this process remembers; past it the oldest window is forgotten. */
const MAX_PREFIXES = 100_000;

/** The guard in this process. */
export class MemoryPumpingGuard implements PumpingGuard {
  readonly #rules: GuardRules;
  readonly #prefixes = new Map<string, PrefixWindow>();

  constructor(rules: GuardRules) {
    this.#rules = rules;
  }

  async admit(prefix: string, now: number): Promise<Admission> {
    const window = this.#window(prefix, now);
    if (window.suspendedUntil > now) return { kind: 'suspended', retryAfterMs: window.suspendedUntil - now };
    if (looksPumped(window.sent, window.verified, this.#rules)) {
      window.suspendedUntil = now + this.#rules.suspendMs;
      return { kind: 'suspended', retryAfterMs: this.#rules.suspendMs };
    }
    window.sent += 1;
    return { kind: 'admitted' };
  }

  async giveBack(prefix: string, now: number): Promise<void> {
    const window = this.#prefixes.get(prefix);
    if (window !== undefined && window.endsAt > now && window.sent > 0) window.sent -= 1;
  }

  async verified(prefix: string, now: number): Promise<void> {
    const window = this.#prefixes.get(prefix);
    if (window !== undefined && window.endsAt > now) window.verified += 1;
  }

  /** The prefix's window now: a new one once the last has ended (a suspension in force carries over). */
  #window(prefix: string, now: number): PrefixWindow {
    const current = this.#prefixes.get(prefix);
    if (current !== undefined && current.endsAt > now) return current;
    const fresh = { sent: 0, verified: 0, endsAt: now + this.#rules.windowMs, suspendedUntil: 0 };
    if (current !== undefined) fresh.suspendedUntil = current.suspendedUntil;
    this.#prefixes.delete(prefix);
    this.#prefixes.set(prefix, fresh);
    if (this.#prefixes.size > MAX_PREFIXES) {
      const oldest = this.#prefixes.keys().next();
      if (oldest.done !== true) this.#prefixes.delete(oldest.value);
    }
    return fresh;
  }
}
