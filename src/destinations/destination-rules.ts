import { ConfigurationError } from '../errors/configuration-error.js';
import { SmsError } from '../errors/sms-error.js';
import { type CanonicalPhone, isPhoneRegion, type PhoneRegion } from '../phone/canonical-phone.js';

/**
 * Where `SmsClient` may send: checked on every recipient before any request.
 * A recipient outside these rules is refused with `DESTINATION_BLOCKED`
 * (`outcome: 'not_sent'`), and nothing of that send goes out.
 *
 * @example
 * ```ts
 * new SmsClient({ destinations: { allowCountries: ['CN', 'HK'] } })
 * ```
 */
export interface SmsDestinations {
  /**
   * The countries (ISO 3166-1 alpha-2 codes, `'CN'`) a recipient may belong
   * to. A number whose country the metadata cannot tell (a non-geographic
   * calling code such as `+800`) belongs to none of them.
   * @defaultValue every country
   */
  readonly allowCountries?: readonly string[] | undefined;
}

/** The checked `destinations` option. */
export class DestinationRules {
  readonly #allowed: ReadonlySet<PhoneRegion>;

  private constructor(allowed: ReadonlySet<PhoneRegion>) {
    this.#allowed = allowed;
  }

  /** The option, checked; `undefined` when it allows every destination. */
  static of(option: SmsDestinations | undefined): DestinationRules | undefined {
    if (option === undefined) return undefined;
    if (typeof option !== 'object' || option === null)
      throw new ConfigurationError('destinations', 'must be an object');
    const countries: unknown = option.allowCountries;
    if (countries === undefined) return undefined;
    if (!Array.isArray(countries) || countries.length === 0) {
      throw new ConfigurationError('destinations.allowCountries', 'must be a non-empty array of ISO 3166 codes');
    }
    const allowed = new Set<PhoneRegion>();
    countries.forEach((country: unknown, index) => {
      if (!isPhoneRegion(country)) {
        throw new ConfigurationError(
          `destinations.allowCountries[${index}]`,
          "must be an ISO 3166-1 alpha-2 code the phone metadata knows, such as 'CN'",
        );
      }
      allowed.add(country);
    });
    return new DestinationRules(allowed);
  }

  /** For `toJSON()`. */
  get settings(): Record<string, unknown> {
    return { allowCountries: [...this.#allowed] };
  }

  /**
   * Checks every recipient of one send.
   *
   * @throws {SmsError} `DESTINATION_BLOCKED` naming the first recipient outside the rules (`phoneNumbers[i]`, or
   *   `phoneNumbers` for a single number given as a string), never the number.
   */
  check(phones: readonly CanonicalPhone[], single: boolean): void {
    phones.forEach((phone, index) => {
      if (phone.region !== undefined && this.#allowed.has(phone.region)) return;
      const parameter = single ? 'phoneNumbers' : `phoneNumbers[${index}]`;
      throw new SmsError({
        code: 'DESTINATION_BLOCKED',
        outcome: 'not_sent',
        parameter,
        message: `${parameter}: its country is not in destinations.allowCountries (${[...this.#allowed].join(', ')}); nothing was sent`,
      });
    });
  }
}
