/**
 * Send a one-time verification code by SMS, handling each outcome as a
 * careful backend would: a send is not idempotent, so an error whose
 * `outcome` is `unknown` must not be blindly re-sent (the user could get, and
 * you could pay for, two messages).
 *
 * Run: `npx tsx examples/send-verification-code.ts` (uses the local sandbox).
 */
import { randomInt } from 'node:crypto';
import { SmsClient, SmsError } from 'hashscan-sms';
import { startSandbox } from 'hashscan-sms/sandbox';

type Delivery = { status: 'sent'; requestId: string } | { status: 'failed' | 'maybe-sent'; reason: string };

async function sendVerificationCode(sms: SmsClient, phone: string, code: string): Promise<Delivery> {
  try {
    const result = await sms.send({ phoneNumbers: phone, templateCode: 'SMS_100000001', templateParam: { code } });
    return { status: 'sent', requestId: result.requestId };
  } catch (error) {
    if (!(error instanceof SmsError)) throw error;
    // 'not_sent' and 'rejected': nothing was delivered or billed; safe to offer "resend".
    // 'unknown': it may have been delivered; let the user wait for it before resending.
    return { status: error.outcome === 'unknown' ? 'maybe-sent' : 'failed', reason: error.code };
  }
}

const sandbox = await startSandbox();
try {
  // In production: new SmsClient() reads SMS_ACCESS_KEY_ID, SMS_ACCESS_KEY_SECRET and SMS_BASE_URL.
  const sms = new SmsClient({
    accessKeyId: sandbox.accessKeyId,
    accessKeySecret: sandbox.accessKeySecret,
    baseUrl: sandbox.smsUrl,
  });
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const delivery = await sendVerificationCode(sms, '13800138000', code);
  console.log(delivery.status === 'sent' ? `sent, RequestId ${delivery.requestId}` : delivery);
  const message = sandbox.messages.at(-1);
  console.log(`the sandbox delivered: "${message?.content}" (billed ${message?.billedCount})`);
  if (delivery.status !== 'sent' || !message?.content?.includes(code)) process.exitCode = 1;
} finally {
  await sandbox.close();
}
