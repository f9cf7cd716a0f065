import type { SetupServer } from 'msw/node';
import type { SentMessage } from '../../src/doubles/sms-account.js';
import type { OtpVerifierOptions } from '../../src/otp/otp-options.js';
import { OtpVerifier } from '../../src/otp/otp-verifier.js';
import { canonicalPhone } from '../../src/phone/canonical-phone.js';
import { SANDBOX_ACCOUNTS } from '../../src/sandbox/index.js';
import { SmsClient } from '../../src/sms/sms-client.js';
import { createSmsHandlers, type SmsHandlers } from '../../src/testing/msw-handlers.js';

export const BASE_URL = 'https://sms.test';
/** The sandbox's verification template: `Your verification code is ${code}. …`. */
export const TEMPLATE = 'SMS_100000001';

/** A clock the test moves by hand, in epoch ms. */
export function manualClock(start = Date.UTC(2026, 10, 27, 8)): { now: () => number; advance: (ms: number) => void } {
  let at = start;
  return {
    now: () => at,
    advance: (ms) => {
      at += ms;
    },
  };
}

/** The SMS double on `server`, and a client of it. */
export function smsService(
  server: SetupServer,
  faults: Record<string, string> = {},
): {
  handlers: SmsHandlers;
  sms: SmsClient;
} {
  const handlers = createSmsHandlers({ baseUrl: BASE_URL, faults });
  server.use(...handlers);
  const sms = new SmsClient({ baseUrl: BASE_URL, ...SANDBOX_ACCOUNTS.member, retry: { retries: 0 } });
  return { handlers, sms };
}

/** A verifier on `sms` with the test's clock. */
export const verifierOn = (sms: SmsClient, options: Partial<OtpVerifierOptions> = {}): OtpVerifier =>
  new OtpVerifier({ sms, templateCode: TEMPLATE, ...options });

/** Where a double keeps the messages it accepted: msw handlers, or the sandbox. */
export interface Inbox {
  readonly messages: readonly SentMessage[];
}

/** A number as the double received it (the client's wire form: a mainland number as its 11 digits), in E.164. */
export function e164Of(wire: string): string {
  const parsed = canonicalPhone(wire);
  return parsed.ok ? parsed.phone.e164 : wire;
}

/** The code the double received last for `e164`. */
export function lastCode(handlers: Inbox, e164: string): string {
  const message = handlers.messages.findLast((m) => m.phoneNumbers.some((wire) => e164Of(wire) === e164));
  const code = (message?.templateParam as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') throw new Error(`no code was sent to ${e164}`);
  return code;
}

/** A code of the same length that is not `code`. */
export const wrongCode = (code: string): string => code.replace(/^./, (d) => String((Number(d) + 1) % 10));

/** Awaits a promise that must reject with an `SmsError`, and returns the error. */
export { rejection as smsRejection } from '../sms/sms-service.js';
