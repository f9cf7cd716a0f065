import { SmsError } from '../../src/errors/sms-error.js';
import type { OtpVerifier } from '../../src/otp/otp-verifier.js';
import { e164Of, type Inbox, lastCode } from './otp-helpers.js';

/** 500 distinct numbers of the 7-digit prefix `8617000` (+86 170 00xx xxxx). */
export const burstNumbers = (count = 500): string[] =>
  Array.from({ length: count }, (_, i) => `+8617000${String(i).padStart(6, '0')}`);

/** 50 numbers, each of its own 7-digit prefix (`8613000` … `8613049`). */
export const ordinaryNumbers = (count = 50): string[] =>
  Array.from({ length: count }, (_, i) => `+8613${String(i).padStart(3, '0')}123456`);

/** What the service received and what the users got. */
export interface PumpingTally {
  /** Messages the service accepted for the burst's numbers. */
  readonly burstDelivered: number;
  /** Burst sends refused with `DESTINATION_SUSPENDED`. */
  readonly burstSuspended: number;
  /** Ordinary users whose code arrived and checked valid. */
  readonly usersVerified: number;
}

/**
 * The burst and the ordinary users interleaved (one user every 10 burst
 * sends), each step 100 ms later on `advance`'s clock. `verifiers` are used
 * in turn (one per replica): a user checks on the next replica.
 */
export async function runPumping(
  verifiers: readonly OtpVerifier[],
  handlers: Inbox,
  advance: (ms: number) => void,
): Promise<PumpingTally> {
  const burst = burstNumbers();
  const users = ordinaryNumbers();
  let burstSuspended = 0;
  let usersVerified = 0;
  let turn = 0;
  const next = (): OtpVerifier => verifiers[turn++ % verifiers.length] as OtpVerifier;
  for (const [index, phoneNumber] of burst.entries()) {
    try {
      await next().send({ phoneNumber, caller: `attacker-${index}` });
    } catch (error) {
      if (!(error instanceof SmsError) || error.code !== 'DESTINATION_SUSPENDED') throw error;
      burstSuspended += 1;
    }
    advance(100);
    const user = index % 10 === 0 ? users[index / 10] : undefined;
    if (user === undefined) continue;
    await next().send({ phoneNumber: user });
    advance(20_000);
    const result = await next().check({ phoneNumber: user, code: lastCode(handlers, user) });
    if (result.valid) usersVerified += 1;
  }
  const burstPrefix = new Set(burst);
  const burstDelivered = handlers.messages.filter((m) => m.phoneNumbers.some((p) => burstPrefix.has(e164Of(p)))).length;
  return { burstDelivered, burstSuspended, usersVerified };
}
