import { inspect } from 'node:util';
import { ConfigurationError } from '../errors/configuration-error.js';
import { SmsError } from '../errors/sms-error.js';
import { type CommonClientOptions, requiredSetting, resolveTransportSettings } from '../transport/client-options.js';
import type { Redactor } from '../transport/redact.js';
import { type Exchange, Transport } from '../transport/transport.js';
import { interpretSendResponse } from './interpret-response.js';
import { invalidParameter } from './invalid-parameter.js';
import { type SigningContext, type SmsMethod, signedSendRequest } from './outgoing-request.js';
import { type SendSmsRequest, toSendParams } from './send-request.js';
import type { SendSmsResult } from './send-result.js';
import { createSmsRedactor, maskAccessKeyId } from './sms-redactor.js';
import { isRetryableSend, sendFailureError } from './transport-failure.js';
import { isWellFormed } from './well-formed.js';

/** `Version` of the AK/SK mode this client speaks. */
const DEFAULT_VERSION = '2017-05-25';
/** The service routes this `Version` to another vendor's protocol (spec parts 4 and 9). */
const FOREIGN_PROTOCOL_VERSION = '2021-01-11';
const DEFAULT_REGION = 'cn-hangzhou';
const METHODS: ReadonlySet<string> = new Set<SmsMethod>(['GET', 'POST']);

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
  readonly accessKeyId?: string;
  /**
   * Access key secret. It signs requests and is never sent, logged or shown.
   * @defaultValue `process.env.SMS_ACCESS_KEY_SECRET`
   */
  readonly accessKeySecret?: string;
  /** @defaultValue `process.env.SMS_BASE_URL` */
  readonly baseUrl?: string;
  /**
   * How requests are sent: `POST` (a form body) or `GET` (a query string).
   * The signature covers the method, so the two are not interchangeable.
   * POST is the default because it keeps phone numbers and template
   * variables out of URLs, which proxies and servers tend to log.
   * @defaultValue `'POST'`
   */
  readonly method?: SmsMethod;
  /** The `RegionId` common parameter. @defaultValue `'cn-hangzhou'` */
  readonly regionId?: string;
  /**
   * The `Version` common parameter. `2021-01-11` is refused: the service
   * routes it to another vendor's protocol, not to this one.
   * @defaultValue `'2017-05-25'`
   */
  readonly version?: string;
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
  readonly retryUnknownOutcome?: boolean;
}

/** Per-call options of {@link SmsClient.send}. */
export interface SendSmsOptions {
  /** Overrides the client's `method` for this send. */
  readonly method?: SmsMethod;
  /**
   * Aborts the send. An abort after the request was written rejects with
   * `ABORTED` and `outcome: 'unknown'`: the service may still deliver it.
   * A signal aborted with a `TimeoutError` (`AbortSignal.timeout()`) rejects
   * with `TIMEOUT` instead (same `outcome` rule).
   */
  readonly signal?: AbortSignal;
  /**
   * Budget of this send, every attempt and back-off included, in ms;
   * rejects `TIMEOUT` when spent. Overrides the client's `totalTimeoutMs`.
   * @defaultValue the client's `totalTimeoutMs`
   */
  readonly totalTimeoutMs?: number;
}

function configString(value: string, option: string): string {
  if (typeof value !== 'string' || value === '') throw new ConfigurationError(option, 'must be a non-empty string');
  if (!isWellFormed(value)) throw new ConfigurationError(option, 'contains a lone UTF-16 surrogate');
  return value;
}

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
  readonly #accessKeyId: string;
  readonly #accessKeySecret: string;
  readonly #redact: Redactor;
  readonly #transport: Transport;
  readonly #signing: SigningContext;
  readonly #retryUnknownOutcome: boolean;
  /** The checked base URL. */
  readonly baseUrl: string;
  /** Default method of {@link SmsClient.send}. */
  readonly method: SmsMethod;
  /** The `RegionId` every request carries. */
  readonly regionId: string;
  /** The `Version` every request carries. */
  readonly version: string;

  constructor(options: SmsClientOptions = {}) {
    this.#accessKeyId = configString(
      requiredSetting(options.accessKeyId, 'accessKeyId', 'SMS_ACCESS_KEY_ID'),
      'accessKeyId',
    );
    this.#accessKeySecret = configString(
      requiredSetting(options.accessKeySecret, 'accessKeySecret', 'SMS_ACCESS_KEY_SECRET'),
      'accessKeySecret',
    );
    this.#redact = createSmsRedactor(this.#accessKeyId, this.#accessKeySecret);
    const settings = resolveTransportSettings(options, {
      baseUrlEnv: 'SMS_BASE_URL',
      name: 'sms',
      redact: this.#redact,
    });
    this.#transport = new Transport(settings);
    this.baseUrl = settings.baseUrl;

    const method = options.method ?? 'POST';
    if (!METHODS.has(method)) throw new ConfigurationError('method', 'must be "GET" or "POST"');
    this.method = method;
    this.regionId = configString(options.regionId ?? DEFAULT_REGION, 'regionId');
    this.version = configString(options.version ?? DEFAULT_VERSION, 'version');
    if (this.version === FOREIGN_PROTOCOL_VERSION) {
      throw new ConfigurationError(
        'version',
        `${FOREIGN_PROTOCOL_VERSION} is routed by the service to another vendor's protocol, not to AK/SK signing`,
      );
    }
    if (options.retryUnknownOutcome !== undefined && typeof options.retryUnknownOutcome !== 'boolean') {
      throw new ConfigurationError('retryUnknownOutcome', 'must be a boolean');
    }
    this.#retryUnknownOutcome = options.retryUnknownOutcome ?? false;
    this.#signing = { accessKeyId: this.#accessKeyId, regionId: this.regionId, version: this.version };
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
  async send(request: SendSmsRequest, options: SendSmsOptions = {}): Promise<SendSmsResult> {
    const method = options.method ?? this.method;
    if (!METHODS.has(method)) throw invalidParameter('method', 'must be "GET" or "POST"');
    const { totalTimeoutMs } = options;
    if (
      totalTimeoutMs !== undefined &&
      (!Number.isSafeInteger(totalTimeoutMs) || totalTimeoutMs < 1 || totalTimeoutMs > 2_147_483_647)
    ) {
      throw invalidParameter('totalTimeoutMs', 'must be a whole number of milliseconds between 1 and 2147483647');
    }
    const params = toSendParams(request);
    // Every signature of this send is hidden from its errors, even if the service echoes one back.
    const signatures: string[] = [];
    let mayHaveSent = false;
    const track = <E>(error: E): E => {
      if (error instanceof SmsError && error.outcome === 'unknown') mayHaveSent = true;
      return error;
    };

    const exchange: Exchange<SendSmsResult> = {
      build: () => {
        const signed = signedSendRequest(method, params, this.#signing, this.#accessKeySecret);
        signatures.push(signed.signature);
        return signed.request;
      },
      interpret: (response) => {
        const redact = createSmsRedactor(this.#accessKeyId, this.#accessKeySecret, signatures);
        try {
          return interpretSendResponse(response, { redact, mayHaveSent });
        } catch (error) {
          throw track(error);
        }
      },
      fail: (failure) => track(sendFailureError(failure, mayHaveSent)),
      isRetryable: (error) => isRetryableSend(error, this.#retryUnknownOutcome),
      signal: options.signal,
      totalTimeoutMs,
    };
    return this.#transport.send(exchange);
  }

  /** Never shows the secret; the key id only masked. */
  [inspect.custom](): string {
    return `SmsClient ${inspect(this.toJSON())}`;
  }

  /** The settings, for logs: the key id masked, the secret absent. */
  toJSON(): Record<string, unknown> {
    return {
      baseUrl: this.baseUrl,
      method: this.method,
      regionId: this.regionId,
      version: this.version,
      accessKeyId: maskAccessKeyId(this.#redact, this.#accessKeyId),
      retryUnknownOutcome: this.#retryUnknownOutcome,
    };
  }
}
