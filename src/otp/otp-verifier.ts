import { SmsError } from '../errors/sms-error.js';
import type { FleetOptions } from '../fleet-plugin/fleet-options.js';
import { fleetParts } from '../fleet-plugin/fleet-plugin.js';
import { logSubscriber } from '../observe/log-subscriber.js';
import { Observers } from '../observe/observers.js';
import { canonicalPhone } from '../phone/canonical-phone.js';
import { toHex } from '../util/crypto.js';
import { type CodeStore, MemoryCodeStore, type StoredCode } from './code-store.js';
import { codeHash, codeMatches, generateCode, phoneKey } from './otp-code.js';
import { destinationSuspended, invalidField, resendCooldown, verificationUnavailable } from './otp-errors.js';
import { type OtpSettings, type OtpVerifierOptions, resolveOtpSettings } from './otp-options.js';
import { destinationPrefix, MemoryPumpingGuard, type PumpingGuard } from './pumping-guard.js';
import { RedisCodeStore } from './redis-code-store.js';
import { RedisPumpingGuard } from './redis-pumping-guard.js';

/** What {@link OtpVerifier.send} takes. */
export interface OtpSendRequest {
  /** The phone, in any spelling `canonicalPhone` reads (`13800138000`, `+86 138 0013 8000`, …). */
  readonly phoneNumber: string;
  /** Who asks (an IP, a user, a session): passed to the client's per-caller limits. @defaultValue none */
  readonly caller?: string | undefined;
}

/** What a sent code is: the service's `RequestId` and when the code expires (epoch ms). */
export interface OtpSendResult {
  /** The service's `RequestId` of the send that carried the code. */
  readonly requestId: string;
  /** When the code stops being accepted, in epoch milliseconds (from the verifier's `now`). */
  readonly expiresAt: number;
}

/** What {@link OtpVerifier.check} takes. */
export interface OtpCheckRequest {
  /** The phone the code was sent to, in any spelling. */
  readonly phoneNumber: string;
  /** The code as typed (surrounding spaces are ignored). */
  readonly code: string;
}

/**
 * Why a check failed: the code is past its `ttlMs` (`expired`), wrong
 * (`mismatch`), checked more than `maxAttempts` times (`too_many_attempts`),
 * or there is no code for this phone (never sent, already used, or forgotten: `not_found`).
 */
export type OtpCheckReason = 'expired' | 'mismatch' | 'too_many_attempts' | 'not_found';

/** What {@link OtpVerifier.check} found. */
export type OtpCheckResult =
  | {
      /** The code was right: it is used up (a second check answers `not_found`). */
      readonly valid: true;
    }
  | {
      /** The code was not accepted. */
      readonly valid: false;
      /** Why: see {@link OtpCheckReason}. */
      readonly reason: OtpCheckReason;
    };

const failed = (reason: OtpCheckReason): OtpCheckResult => ({ valid: false, reason });

/**
 * Sends verification codes through an `SmsClient` and checks them: codes
 * from a cryptographic generator, stored only as a keyed hash with their
 * expiry, checked in constant time, single use, at most `maxAttempts` checks,
 * a resend cool-down, every spelling of a phone one verification; a pumping
 * guard suspends destination prefixes whose codes are not verified. In
 * memory, or shared by replicas through the fleet's Redis.
 *
 * @example
 * ```ts
 * const verifier = new OtpVerifier({ sms, templateCode: 'SMS_100000001' })
 * await verifier.send({ phoneNumber: '13800138000', caller: request.ip })
 * const { valid } = await verifier.check({ phoneNumber: '+86 138 0013 8000', code: '123456' })
 * ```
 */
export class OtpVerifier {
  readonly #settings: OtpSettings;
  readonly #store: CodeStore;
  readonly #guard: PumpingGuard | undefined;

  /**
   * The deprecated plain `fleet: { redis, … }` form (same behaviour), its own signature so that an editor
   * strikes the call through.
   * @deprecated Pass `fleet: redisFleet({ redis, … })` of `hashscan-sms/fleet`: `fleet: { redis }` stays for at least one
   * minor release.
   */
  constructor(options: OtpVerifierOptions & { readonly fleet: FleetOptions });
  /** A verifier over `options.sms` (see {@link OtpVerifierOptions}). */
  constructor(options: OtpVerifierOptions);
  constructor(options: OtpVerifierOptions) {
    const settings = resolveOtpSettings(options);
    this.#settings = settings;
    const rules = { cooldownMs: settings.cooldownMs, keepMs: 2 * settings.ttlMs };
    const local = settings.guard === undefined ? undefined : new MemoryPumpingGuard(settings.guard);
    const fleet = fleetParts(options.fleet);
    if (fleet === undefined) {
      this.#store = new MemoryCodeStore(rules, settings.maxStoredCodes);
      this.#guard = local;
      return;
    }
    const logs = logSubscriber(settings.logger);
    const { link: codes, prefix } = fleet.verification({ observers: new Observers(logs === undefined ? [] : [logs]) });
    this.#store = new RedisCodeStore(codes, { ...rules, ttlMs: settings.ttlMs, keyPrefix: prefix });
    // A link of its own: a forged guard key makes the guard step aside, not the codes (and the other way round).
    const guard = codes.sibling('verification');
    this.#guard = local && settings.guard && new RedisPumpingGuard(guard, settings.guard, prefix, local);
  }

  /**
   * Sends a new code to `phoneNumber`.
   *
   * @throws {SmsError} `InvalidParameter` (`phoneNumber`, `caller`), `RESEND_COOLDOWN`,
   *   `DESTINATION_SUSPENDED`, `VERIFICATION_UNAVAILABLE` (nothing sent), or the client's own
   *   `SmsError`. With `outcome: 'unknown'` the message may have arrived: its code stays valid
   *   (and counts for the pumping guard), so answer "a code may have been sent".
   */
  async send(request: OtpSendRequest): Promise<OtpSendResult> {
    const e164 = this.#phone(request);
    const caller = request.caller;
    if (caller !== undefined && (typeof caller !== 'string' || caller === '')) {
      throw invalidField('caller', 'must be a non-empty string');
    }
    const { secret, ttlMs, sms, templateCode, codeParam } = this.#settings;
    const now = this.#settings.now();
    const id = toHex(globalThis.crypto.getRandomValues(new Uint8Array(16)));
    const code = generateCode(this.#settings.codeLength);
    const stored: StoredCode = { id, hash: codeHash(secret, id, e164, code), sentAt: now, expiresAt: now + ttlMs };
    const key = phoneKey(secret, e164);
    const started = await this.#store.start(key, stored, now);
    if (started.kind === 'cooling') throw resendCooldown(started.retryAfterMs);
    if (started.kind === 'unavailable') throw verificationUnavailable();
    const prefix = this.#prefix(e164);
    const admission = await this.#guard?.admit(prefix, now);
    if (admission?.kind === 'suspended') {
      await this.#store.remove(key, id);
      throw destinationSuspended(admission.retryAfterMs);
    }
    try {
      const request = { phoneNumbers: e164, templateCode, templateParam: { [codeParam]: code } };
      const result = await sms.send(request, caller === undefined ? undefined : { caller });
      return { requestId: result.requestId, expiresAt: stored.expiresAt };
    } catch (error) {
      // Surely not sent: the code is void and does not count. Anything else may have arrived.
      if (error instanceof SmsError && error.outcome !== 'unknown') {
        await this.#store.remove(key, id);
        await this.#guard?.giveBack(prefix, now);
      }
      throw error;
    }
  }

  /**
   * Checks a code. Each call counts as one attempt, across replicas; a valid
   * code is used up by the check that finds it.
   *
   * @throws {SmsError} `InvalidParameter` (`phoneNumber`, `code`), or `VERIFICATION_UNAVAILABLE`
   *   when the shared store cannot be reached (retry after `retryAfterMs`).
   */
  async check(request: OtpCheckRequest): Promise<OtpCheckResult> {
    const e164 = this.#phone(request);
    const given = request.code;
    if (typeof given !== 'string') throw invalidField('code', 'must be a string');
    const code = given.trim();
    const { secret, maxAttempts } = this.#settings;
    const now = this.#settings.now();
    const key = phoneKey(secret, e164);
    const read = await this.#store.attempt(key, now);
    if (read.kind === 'unavailable') throw verificationUnavailable();
    if (read.kind === 'none') return failed('not_found');
    const { code: stored, attempts } = read;
    if (now >= stored.expiresAt) return failed('expired');
    if (attempts > maxAttempts) return failed('too_many_attempts');
    if (!codeMatches(secret, stored.id, e164, code, stored.hash)) return failed('mismatch');
    const removed = await this.#store.remove(key, stored.id);
    if (removed === 'unavailable') throw verificationUnavailable();
    // Another check (another replica) used it first.
    if (removed === 'gone') return failed('not_found');
    await this.#guard?.verified(this.#prefix(e164), now);
    return { valid: true };
  }

  #phone(request: { readonly phoneNumber: string } | undefined): string {
    if (typeof request !== 'object' || request === null) throw invalidField('request', 'must be an object');
    const input = request.phoneNumber;
    if (typeof input !== 'string') throw invalidField('phoneNumber', 'must be a string');
    const parsed = canonicalPhone(input, this.#settings.region);
    if (!parsed.ok) throw invalidField('phoneNumber', `is not a phone number (${parsed.problem})`);
    return parsed.phone.e164;
  }

  #prefix(e164: string): string {
    return this.#settings.guard === undefined ? '' : destinationPrefix(e164, this.#settings.guard);
  }
}
