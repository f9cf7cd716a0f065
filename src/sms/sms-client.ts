import { DestinationRules } from '../destinations/destination-rules.js';
import type { SmsFleetOptions } from '../fleet-plugin/fleet-options.js';
import { fleetParts, type SendFleet } from '../fleet-plugin/fleet-plugin.js';
import { SendLimits } from '../limits/send-limits.js';
import type { SendOperation } from '../observe/events.js';
import type { Observers } from '../observe/observers.js';
import { observeOperation } from '../observe/operation.js';
import type { PhoneRegion } from '../phone/canonical-phone.js';
import type { CredentialSource } from '../secrets/credentials.js';
import type { Redactor } from '../secrets/redact.js';
import { SecretSet } from '../secrets/secret-set.js';
import { clientObservers } from '../telemetry/publishers.js';
import { startDeadline } from '../transport/call/deadline.js';
import { Transport } from '../transport/call/transport.js';
import {
  type ClientDefaults,
  resolveTimeoutMs,
  resolveTransportSettings,
} from '../transport/settings/client-options.js';
import { summarizeTransport, type TransportSummary } from '../transport/settings/settings-summary.js';
import { INSPECT, inspectWith } from '../util/inspect.js';
import { ClockOffset } from './clock-offset.js';
import { describeSmsResponse } from './log-note.js';
import type { SigningContext, SmsMethod } from './outgoing-request.js';
import { limitCall } from './send-budget.js';
import { newSendState, type SendCall, type SendDeps, SendExchange } from './send-exchange.js';
import { checkSendOptions, type SendSmsOptions } from './send-options.js';
import { type SendSmsParams, type SendSmsRequest, toSendParams } from './send-request.js';
import type { SendSmsResult } from './send-result.js';
import type { SmsClientOptions } from './sms-client-options.js';
import { type SigningKeys, smsCredentialSource } from './sms-credentials.js';
import { createSmsRedactor, maskAccessKeyId, type SmsSecrets } from './sms-redactor.js';
import { resolveSmsSettings } from './sms-settings.js';
import type { SmsStats } from './sms-stats.js';

export type { SendSmsOptions } from './send-options.js';
export type { SmsClientOptions } from './sms-client-options.js';

/** What this client sets for itself in the shared transport settings. */
const SMS_DEFAULTS: ClientDefaults = { baseUrlEnv: 'SMS_BASE_URL', name: 'sms' };

/**
 * Sends template SMS through the AK/SK-signed (HMAC-SHA1, signature version
 * 1.0) interface. Each attempt is signed afresh with a new nonce and
 * timestamp. A send resolves only on HTTP 2xx with `Code: "OK"`; everything
 * else rejects with an {@link SmsError} whose `outcome` says whether the
 * message may have gone out.
 *
 * @example
 * ```ts
 * const sms = new SmsClient() // SMS_ACCESS_KEY_ID, SMS_ACCESS_KEY_SECRET, SMS_BASE_URL
 * const { requestId } = await sms.send({
 *   phoneNumbers: '13800000000',
 *   templateCode: 'SMS_123456789',
 *   templateParam: { code: '123456' },
 * })
 * ```
 */
export class SmsClient {
  readonly #keys: SmsSecrets = { secrets: new SecretSet(), keyIds: new SecretSet() };
  readonly #credentials: CredentialSource<SigningKeys>;
  readonly #redact: Redactor;
  readonly #transport: Transport;
  readonly #deps: SendDeps;
  readonly #observers: Observers;
  readonly #clock = new ClockOffset();
  readonly #retryUnknownOutcome: boolean;
  readonly #totalTimeoutMs: number | undefined;
  readonly #summary: TransportSummary;
  readonly #fleet: SendFleet | undefined;
  readonly #limits: SendLimits | undefined;
  readonly #destinations: DestinationRules | undefined;
  /** The checked base URL. */
  readonly baseUrl: string;
  /** Default method of {@link SmsClient.send}. */
  readonly method: SmsMethod;
  /** The `RegionId` every request carries. */
  readonly regionId: string;
  /** The `Version` every request carries. */
  readonly version: string;
  /** The region a number without a country calling code is read in. */
  readonly defaultRegion: PhoneRegion;

  /**
   * The deprecated plain `fleet: { redis, … }` form (same behaviour), its own signature so that an editor
   * strikes the call through.
   * @deprecated Pass `fleet: redisFleet({ redis, … })` of `hashscan-sms/fleet`: `fleet: { redis }` stays for at least one
   * minor release.
   */
  constructor(options: SmsClientOptions & { readonly fleet: SmsFleetOptions });
  /** A client; every option has a default (see {@link SmsClientOptions}). */
  constructor(options?: SmsClientOptions);
  constructor(options: SmsClientOptions = {}) {
    this.#redact = createSmsRedactor(this.#keys);
    const basics = { redact: this.#redact, timeoutMs: resolveTimeoutMs(options.timeoutMs) };
    this.#credentials = smsCredentialSource(options, this.#keys, basics);
    const observers = clientObservers(options, { client: 'sms', baseUrl: () => this.baseUrl, owner: this }, basics);
    const settings = resolveTransportSettings(options, SMS_DEFAULTS, basics, observers);
    this.#fleet = fleetParts(options.fleet)?.sends({ ...settings, service: settings.baseUrl });
    const fleetLimits = options.fleet !== undefined && 'limits' in options.fleet ? options.fleet.limits : undefined;
    const limits = { limits: options.limits, fleetLimits };
    // The process's counts of this account: by key id, or by provider while its keys are not known yet.
    const scope = typeof options.credentials === 'function' ? options.credentials : this.#keys.keyIds.values.at(-1);
    this.#limits = SendLimits.of(limits, this.#fleet?.store, settings.observers, scope ?? '');
    this.#destinations = DestinationRules.of(options.destinations);
    const counted = this.#limits;
    if (counted !== undefined) this.#fleet?.countLimited(() => counted.stats().refused);
    // A send must never be repeated on a guess: on the dispatcher path, know whether it reached a socket.
    const sending = { describeResponse: describeSmsResponse, trackWrites: true, fleetGate: this.#fleet?.gate };
    this.#transport = new Transport({ ...settings, ...sending });
    this.#totalTimeoutMs = settings.totalTimeoutMs;
    this.#observers = settings.observers;
    this.baseUrl = settings.baseUrl;
    this.#summary = summarizeTransport(settings);

    const own = resolveSmsSettings(options);
    this.method = own.method;
    this.regionId = own.regionId;
    this.version = own.version;
    this.defaultRegion = own.defaultRegion;
    this.#retryUnknownOutcome = own.retryUnknownOutcome;
    const signing: SigningContext = { regionId: this.regionId, version: this.version };
    this.#deps = {
      credentials: this.#credentials,
      clock: this.#clock,
      signing,
      redact: this.#redact,
      retryUnknownOutcome: this.#retryUnknownOutcome,
      onClockCorrected: (offsetMs) => {
        if (this.#observers.listens('clock')) this.#observers.emit({ type: 'clock', client: 'sms', offsetMs });
      },
    };
  }

  /**
   * Milliseconds added to the local clock to make `Timestamp`, learnt from
   * the service's `Date` header (0 until a skew of 5 minutes or more, or a
   * refused timestamp, is seen).
   */
  get clockOffsetMs(): number {
    return this.#clock.offsetMs;
  }

  /**
   * Sends one template SMS to one or more phone numbers.
   *
   * The request is validated first (a bad field rejects with
   * `InvalidParameter`, `outcome: 'not_sent'`, and nothing is sent). Only
   * failures that surely sent nothing are retried, unless
   * `retryUnknownOutcome` is on. Service error codes are never retried.
   *
   * @returns The service's acknowledgement: `Code: "OK"` on HTTP 2xx.
   * @throws {SmsError} for every other outcome; read `code` and `outcome`.
   */
  async send(request: SendSmsRequest, options?: SendSmsOptions): Promise<SendSmsResult> {
    const { method, signal, totalTimeoutMs, caller } = checkSendOptions(options, this.method);
    const { params, phones, single } = toSendParams(request, this.defaultRegion);
    this.#destinations?.check(phones, single);
    // The budget starts here: the limits check and the attempts share it.
    const deadline = startDeadline(totalTimeoutMs ?? this.#totalTimeoutMs);
    const send = () => this.#send(params, { method, signal, deadline });
    if (this.#limits === undefined) return send();
    const parties = { recipients: phones.map((phone) => phone.e164), caller };
    return this.#limits.guard(parties, send, limitCall(deadline, signal, this.#redact));
  }

  async #send(params: SendSmsParams, call: Pick<SendCall, 'method' | 'signal' | 'deadline'>): Promise<SendSmsResult> {
    const state = newSendState();
    const observers = this.#observers;
    const op: SendOperation | undefined = observers.active
      ? {
          client: 'sms',
          operation: 'send',
          phoneCount: params.PhoneNumbers.split(',').length,
          templateCode: params.TemplateCode,
          method: call.method,
        }
      : undefined;
    const exchange = new SendExchange(this.#deps, { ...call, params, state, op });
    if (op === undefined) return this.#transport.send(exchange);
    return observeOperation(observers, op, { attempts: () => state.attempts }, () => this.#transport.send(exchange));
  }

  /** Requests, retries, breaker state, retry tokens left, throttled time. Cheap; nothing secret. */
  stats(): SmsStats {
    return {
      ...this.#transport.stats(),
      ...this.#fleet?.counted,
      ...(this.#limits !== undefined && { limits: this.#limits.stats() }),
    };
  }

  /** The effective settings (see {@link SmsClient.toJSON}); never the secret, the key id only masked. */
  [INSPECT](_depth?: number, _options?: object, inspect?: unknown): string {
    return `SmsClient ${inspectWith(inspect, this.toJSON(), { depth: 3 })}`;
  }

  /**
   * The effective settings, defaults applied, for logs: base URL, method,
   * region, version, the key id masked, time-out, retry, how requests are
   * sent, the logger kind. Never the secret.
   */
  toJSON(): Record<string, unknown> {
    const { baseUrl, ...transport } = this.#summary;
    return {
      baseUrl,
      method: this.method,
      regionId: this.regionId,
      version: this.version,
      defaultRegion: this.defaultRegion,
      accessKeyId: this.#shownKeyId(),
      retryUnknownOutcome: this.#retryUnknownOutcome,
      clockOffsetMs: this.#clock.offsetMs,
      ...transport,
      ...this.#fleet?.described,
      ...(this.#limits !== undefined && { limits: this.#limits.settings }),
      ...(this.#destinations !== undefined && { destinations: this.#destinations.settings }),
    };
  }

  /** The key id in use, masked; `'(provider)'` before a provider has answered. */
  #shownKeyId(): string {
    const current = this.#keys.keyIds.values.at(-1);
    if (current === undefined) return '(provider)';
    return maskAccessKeyId(this.#redact, current);
  }
}
