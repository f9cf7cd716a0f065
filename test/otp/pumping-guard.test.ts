import { describe, expect, it } from 'vitest';
import { useMswServer } from '../helpers/msw.js';
import { lastCode, manualClock, smsRejection, smsService, verifierOn } from './otp-helpers.js';
import { burstNumbers, ordinaryNumbers, runPumping } from './pumping-scenario.js';

const server = useMswServer();

describe('OtpVerifier pumping guard (in memory, defaults)', () => {
  it('delivers at most 50 of a 500-number burst on one 7-digit prefix, while 50 ordinary users all verify', async () => {
    const { handlers, sms } = smsService(server);
    const clock = manualClock();
    const verifier = verifierOn(sms, { now: clock.now });
    const tally = await runPumping([verifier], handlers, clock.advance);

    expect(tally.burstDelivered).toBeLessThanOrEqual(50);
    expect(tally.burstDelivered + tally.burstSuspended).toBe(500);
    expect(tally.usersVerified).toBe(50);
  });

  it('suspends only the pumped prefix, with retryAfterMs, and opens it again after suspendMs', async () => {
    const { handlers, sms } = smsService(server);
    const clock = manualClock();
    const verifier = verifierOn(sms, { now: clock.now, pumpingGuard: { maxUnverified: 3, suspendMs: 60_000 } });
    const [a, b, c, d, e] = burstNumbers(5) as [string, string, string, string, string];
    for (const phoneNumber of [a, b, c]) await verifier.send({ phoneNumber });
    const error = await smsRejection(verifier.send({ phoneNumber: d }));
    expect(error).toMatchObject({ code: 'DESTINATION_SUSPENDED', outcome: 'not_sent', retryAfterMs: 60_000 });
    expect(handlers.messages).toHaveLength(3);

    // Another prefix is untouched.
    await verifier.send({ phoneNumber: ordinaryNumbers(1)[0] as string });
    clock.advance(59_000);
    await expect(smsRejection(verifier.send({ phoneNumber: e }))).resolves.toMatchObject({ retryAfterMs: 1_000 });
    // After the suspension the window (one hour) still holds three unverified codes: suspended again at once.
    clock.advance(1_000);
    await expect(smsRejection(verifier.send({ phoneNumber: e }))).resolves.toMatchObject({
      code: 'DESTINATION_SUSPENDED',
    });
    // A new window opens the prefix.
    clock.advance(3_600_000);
    await verifier.send({ phoneNumber: e });
    expect(handlers.messages).toHaveLength(5);
  });

  it('keeps a busy prefix open while its users verify, and never guards with pumpingGuard: false', async () => {
    const { sms, handlers } = smsService(server);
    const clock = manualClock();
    const guarded = verifierOn(sms, { now: clock.now, pumpingGuard: { maxUnverified: 3 } });
    const numbers = burstNumbers(20);
    for (const [i, phoneNumber] of numbers.entries()) {
      await guarded.send({ phoneNumber });
      // Two in three verify: the conversion stays above one half.
      if (i % 3 !== 2) {
        await expect(guarded.check({ phoneNumber, code: lastCode(handlers, phoneNumber) })).resolves.toEqual({
          valid: true,
        });
      }
    }
    expect(handlers.messages).toHaveLength(20);

    const open = verifierOn(sms, { now: clock.now, pumpingGuard: false });
    for (const phoneNumber of burstNumbers(60).slice(20)) await open.send({ phoneNumber });
    expect(handlers.messages).toHaveLength(60);
  });
});
