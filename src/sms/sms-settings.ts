/**
 * The SMS client's own settings (method, region, version, re-send policy, the phone numbers' default region),
 * checked once at construction; the transport's settings are checked in `config/`.
 * @module
 */
import { ConfigurationError } from '../errors/configuration-error.js';
import { DEFAULT_PHONE_REGION, isPhoneRegion, type PhoneRegion } from '../phone/canonical-phone.js';
import type { SmsMethod } from './outgoing-request.js';

/** `Version` of the AK/SK mode this client speaks. */
const DEFAULT_VERSION = '2017-05-25';
/** The service routes this `Version` to another vendor's protocol (spec parts 4 and 9). */
const FOREIGN_PROTOCOL_VERSION = '2021-01-11';
const DEFAULT_REGION = 'cn-hangzhou';
const METHODS: ReadonlySet<string> = new Set<SmsMethod>(['GET', 'POST']);

/** The options this module reads (a subset of `SmsClientOptions`). */
export interface SmsSettingOptions {
  readonly method?: SmsMethod | undefined;
  readonly regionId?: string | undefined;
  readonly version?: string | undefined;
  readonly retryUnknownOutcome?: boolean | undefined;
  readonly defaultRegion?: PhoneRegion | undefined;
}

/** The checked values, defaults applied. */
export interface SmsSettings {
  readonly method: SmsMethod;
  readonly regionId: string;
  readonly version: string;
  readonly retryUnknownOutcome: boolean;
  readonly defaultRegion: PhoneRegion;
}

function configString(value: string, option: string): string {
  if (typeof value !== 'string' || value === '') throw new ConfigurationError(option, 'must be a non-empty string');
  if (!value.isWellFormed()) throw new ConfigurationError(option, 'contains a lone UTF-16 surrogate');
  return value;
}

/** Checks the SMS-only options; throws {@link ConfigurationError} naming the first bad one. */
export function resolveSmsSettings(options: SmsSettingOptions): SmsSettings {
  const method = options.method ?? 'POST';
  if (!METHODS.has(method)) throw new ConfigurationError('method', 'must be "GET" or "POST"');
  const regionId = configString(options.regionId ?? DEFAULT_REGION, 'regionId');
  const version = configString(options.version ?? DEFAULT_VERSION, 'version');
  if (version === FOREIGN_PROTOCOL_VERSION) {
    throw new ConfigurationError(
      'version',
      `${FOREIGN_PROTOCOL_VERSION} is routed by the service to another vendor's protocol, not to AK/SK signing`,
    );
  }
  if (options.retryUnknownOutcome !== undefined && typeof options.retryUnknownOutcome !== 'boolean') {
    throw new ConfigurationError('retryUnknownOutcome', 'must be a boolean');
  }
  const defaultRegion: unknown = options.defaultRegion ?? DEFAULT_PHONE_REGION;
  if (!isPhoneRegion(defaultRegion)) {
    throw new ConfigurationError(
      'defaultRegion',
      "must be an ISO 3166-1 alpha-2 code the phone metadata knows, such as 'CN'",
    );
  }
  return { method, regionId, version, retryUnknownOutcome: options.retryUnknownOutcome ?? false, defaultRegion };
}
