import type { SmsDestinations } from '../destinations/destination-rules.js';
import type { SmsFleetOptions } from '../fleet-plugin/fleet-options.js';
import type { FleetPlugin } from '../fleet-plugin/fleet-plugin.js';
import type { SmsLimitsOptions } from '../limits/limits-options.js';
import type { PhoneRegion } from '../phone/canonical-phone.js';
import type { CommonClientOptions } from '../transport/settings/client-options.js';
import type { SmsMethod } from './outgoing-request.js';
import type { SmsCredentials, SmsCredentialsProvider } from './sms-credentials.js';

/**
 * Options of {@link SmsClient}.
 *
 * @example
 * ```ts
 * const sms = new SmsClient({
 *   accessKeyId: process.env.SMS_ACCESS_KEY_ID,
 *   accessKeySecret: process.env.SMS_ACCESS_KEY_SECRET,
 *   baseUrl: 'https://sms.example.com',
 *   retry: { retries: 3, minDelayMs: 200 },
 * })
 * ```
 */
export interface SmsClientOptions extends CommonClientOptions {
  /**
   * Access key id, sent as `AccessKeyId`. Shown masked (`LTAI***`) in logs and errors.
   * @defaultValue `process.env.SMS_ACCESS_KEY_ID`
   */
  readonly accessKeyId?: string | undefined;
  /**
   * Access key secret. It signs requests and is never sent, logged or shown.
   * @defaultValue `process.env.SMS_ACCESS_KEY_SECRET`
   */
  readonly accessKeySecret?: string | undefined;
  /**
   * Credentials as one object, or a provider asked before a request whenever
   * the last answer has expired (its `expiresAt`, else after 5 minutes), so a
   * secrets manager or STS can rotate keys without a restart. Concurrent
   * sends share one provider call. A provider that throws, returns nothing
   * usable or takes longer than `timeoutMs` fails that send with
   * `CREDENTIALS` (`outcome: 'not_sent'`). Keys the service refuses
   * (`category: 'auth'`) are asked for again on the next send. Cannot be
   * combined with `accessKeyId`/`accessKeySecret`.
   * @defaultValue none: `accessKeyId` and `accessKeySecret` are used
   * @example
   * ```ts
   * credentials: async () => {
   *   const secret = JSON.parse(await secrets.get('sms-keys'))
   *   return { accessKeyId: secret.id, accessKeySecret: secret.secret, expiresAt: Date.now() + 600_000 }
   * }
   * ```
   */
  readonly credentials?: SmsCredentials | SmsCredentialsProvider | undefined;
  /** @defaultValue `process.env.SMS_BASE_URL` */
  readonly baseUrl?: string | undefined;
  /**
   * How requests are sent: `POST` (a form body) or `GET` (a query string).
   * The signature covers the method, so the two are not interchangeable.
   * POST is the default because it keeps phone numbers and template
   * variables out of URLs, which proxies and servers tend to log.
   * @defaultValue `'POST'`
   */
  readonly method?: SmsMethod | undefined;
  /** The `RegionId` common parameter. @defaultValue `'cn-hangzhou'` */
  readonly regionId?: string | undefined;
  /**
   * The `Version` common parameter. `2021-01-11` is refused: the service
   * routes it to another vendor's protocol, not to this one.
   * @defaultValue `'2017-05-25'`
   */
  readonly version?: string | undefined;
  /**
   * Re-send after a time-out, a connection broken after the request was
   * written, or an HTTP 408/429/5xx without a service answer.
   *
   * Off by default because a send is not idempotent: the first request may
   * have been delivered, so a re-send can deliver and bill the message twice.
   * Failures that surely sent nothing (DNS failure, refused connection) are
   * re-sent either way, following `retry`.
   * @defaultValue `false`
   */
  readonly retryUnknownOutcome?: boolean | undefined;
  /**
   * One `429` pause, one `rateLimit` quota and optional sending limits for every replica, through Redis
   * (README: "Running a fleet"). Fails open. `redisFleet({ redis })` of `hashscan-sms/fleet` makes one; the
   * plain `{ redis, prefix, timeoutMs }` form is deprecated (same behaviour).
   * @defaultValue none: each replica on its own
   * @example `fleet: redisFleet({ redis, prefix: 'sms:prod' })`
   */
  readonly fleet?: FleetPlugin | SmsFleetOptions | undefined;
  /**
   * Sending limits per phone number (its canonical form: every spelling of one phone counts as one), per
   * caller (`send(request, { caller })`) and a daily budget, checked before any request (over a limit:
   * `SEND_LIMITED`, `outcome: 'not_sent'`). Counted for the whole process: every client with the same access
   * key id (or the same `credentials` provider) shares the counts, each enforcing its own limits over them;
   * with `fleet`, shared through Redis, `onStoreFailure` saying what a send does while the shared count
   * cannot be read (docs/sms-limits.md).
   * @defaultValue none
   * @example `limits: { perRecipient: { perMinute: 1, perHour: 5 }, perCaller: { perHour: 10 }, dailyBudget: 50_000 }`
   */
  readonly limits?: SmsLimitsOptions | undefined;
  /**
   * The region (ISO 3166-1 alpha-2) a phone number written without a country calling code belongs to.
   * The vendor's `PhoneNumbers` are mainland China numbers unless written with an international prefix,
   * hence `'CN'`: `13800138000`, `8613800138000`, `+8613800138000` and `008613800138000` are one number.
   * @defaultValue `'CN'`
   */
  readonly defaultRegion?: PhoneRegion | undefined;
  /**
   * Where messages may go: `allowCountries` (ISO 3166-1 alpha-2 codes). A recipient outside it is refused
   * before any request and before the limits, with `DESTINATION_BLOCKED` (`outcome: 'not_sent'`).
   * @defaultValue every country
   * @example `destinations: { allowCountries: ['CN'] }`
   */
  readonly destinations?: SmsDestinations | undefined;
}
