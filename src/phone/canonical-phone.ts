import { type CountryCode, isSupportedCountry, parsePhoneNumberWithError } from 'libphonenumber-js/min';

/**
 * An ISO 3166-1 alpha-2 region (`'CN'`, `'US'`, `'GB'`): where a number written without an international
 * prefix is read as a national number.
 */
export type PhoneRegion = CountryCode;

/**
 * The region a national number belongs to when none is configured: the vendor's `PhoneNumbers` are
 * domestic (mainland China) numbers unless written with an international prefix.
 */
export const DEFAULT_PHONE_REGION: PhoneRegion = 'CN';

/** A phone number reduced to the one spelling that counts, limits and verifications key on. */
export interface CanonicalPhone {
  /** E.164: `+`, the country calling code and the national number (`+8613800138000`). */
  readonly e164: string;
  /** The country calling code, without `+` (`'86'`). */
  readonly callingCode: string;
  /** The national significant number (`'13800138000'`). */
  readonly nationalNumber: string;
  /** The region the number belongs to, when the metadata can tell (`'CN'`). */
  readonly region: PhoneRegion | undefined;
}

/** Why a string is not a phone number. */
type PhoneProblem = 'not_a_number' | 'unknown_country' | 'too_short' | 'too_long' | 'not_possible';

/** What {@link canonicalPhone} found: the canonical number, or why there is none. */
export type PhoneParse =
  | { readonly ok: true; readonly phone: CanonicalPhone }
  | { readonly ok: false; readonly problem: PhoneProblem };

/** Whether `value` names a region the phone metadata knows. */
export function isPhoneRegion(value: unknown): value is PhoneRegion {
  return typeof value === 'string' && isSupportedCountry(value);
}

/**
 * What a phone number may be written with: a leading `+` (or full-width `＋`), digits (ASCII or
 * full-width), spaces, dashes, dots and brackets. The parser alone would also read `tel:` URIs,
 * extensions (`x12`, `;ext=1`) and trailing letters, dropping them in silence: one phone would then
 * have spellings no one can see, and text that is not a number would be accepted.
 */
const WRITTEN_NUMBER = /^\s*[+\uFF0B]?[\s0-9\uFF10-\uFF19().\uFF08\uFF09\-\u2010-\u2015\u2212]+$/u;

// libphonenumber-js's error messages, mapped to this package's words.
const PROBLEMS: Readonly<Record<string, PhoneProblem>> = {
  INVALID_COUNTRY: 'unknown_country',
  TOO_SHORT: 'too_short',
  TOO_LONG: 'too_long',
  NOT_A_NUMBER: 'not_a_number',
  INVALID_LENGTH: 'not_possible',
};

/**
 * Parses a phone number to E.164. A number without `+` or an international prefix is read in
 * `defaultRegion`; a number that starts with that region's calling code (`8613800138000`) or its
 * international prefix (`008613800138000`) is the same number. Spaces, dashes, brackets and
 * full-width digits are accepted; anything else (letters, an extension, a `tel:` prefix) is
 * `not_a_number`, and a number whose length is not possible for its country is `not_possible`.
 *
 * @example
 * ```ts
 * canonicalPhone('008613800138000', 'CN'); // { ok: true, phone: { e164: '+8613800138000', … } }
 * ```
 */
export function canonicalPhone(input: string, defaultRegion: PhoneRegion = DEFAULT_PHONE_REGION): PhoneParse {
  if (!WRITTEN_NUMBER.test(input)) return { ok: false, problem: 'not_a_number' };
  let parsed: ReturnType<typeof parsePhoneNumberWithError>;
  try {
    parsed = parsePhoneNumberWithError(input, { defaultCountry: defaultRegion });
  } catch (error) {
    const problem = error instanceof Error ? PROBLEMS[error.message] : undefined;
    return { ok: false, problem: problem ?? 'not_a_number' };
  }
  if (!parsed.isPossible()) return { ok: false, problem: 'not_possible' };
  return {
    ok: true,
    phone: {
      e164: parsed.number,
      callingCode: parsed.countryCallingCode,
      nationalNumber: parsed.nationalNumber,
      region: parsed.country,
    },
  };
}
