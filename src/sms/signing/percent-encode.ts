import { SigningError } from '../../errors/signing-error.js';

/** A string made only of RFC 3986 unreserved characters encodes to itself. */
const UNRESERVED_ONLY = /^[A-Za-z0-9\-_.~]*$/;
/** The five characters `encodeURIComponent` leaves alone but the signing protocol encodes. */
const SUB_DELIMS = /[!'()*]/g;
const SUB_DELIM_CODES: Readonly<Record<string, string>> = {
  '!': '%21',
  "'": '%27',
  '(': '%28',
  ')': '%29',
  '*': '%2A',
};
const encodeSubDelim = (char: string): string => SUB_DELIM_CODES[char] ?? char;

/**
 * Percent-encodes a string the way the RPC signature (version 1.0) requires:
 * the UTF-8 bytes of `value`, with only `A-Z a-z 0-9 - _ . ~` kept literal and
 * every other byte written as `%XY` in upper-case hex. A space becomes `%20`
 * (never `+`) and `! ' ( ) *` are encoded too.
 *
 * @param value - The text to encode.
 * @param parameterName - Named in the error if `value` cannot be encoded; the
 *   value itself never appears in an error message because it may be secret.
 * @returns The encoded text.
 * @throws {@link SigningError} when `value` is not a string or contains a lone
 *   UTF-16 surrogate (it has no UTF-8 form, so no server could sign it alike).
 *
 * @example
 * ```ts
 * percentEncode("Hi! it's 1*2 ~ok")   // "Hi%21%20it%27s%201%2A2%20~ok"
 * percentEncode('阿里')               // "%E9%98%BF%E9%87%8C"
 * ```
 */
export function percentEncode(value: string, parameterName?: string): string {
  if (typeof value !== 'string') {
    throw new SigningError(
      `${describe(parameterName)} must be a string to be signed, got ${value === null ? 'null' : typeof value}`,
      parameterName,
    );
  }
  // Most signed values (Action, Version, nonces, IDs) need no encoding at all.
  if (UNRESERVED_ONLY.test(value)) return value;
  let encoded: string;
  try {
    // Native UTF-8 percent-encoding (upper-case hex) is far faster than a byte loop.
    encoded = encodeURIComponent(value);
  } catch {
    // URIError: a lone surrogate. Don't chain the cause; keep the value out of the error.
    throw new SigningError(
      `${describe(parameterName)} contains a lone UTF-16 surrogate and cannot be signed`,
      parameterName,
    );
  }
  return encoded.replace(SUB_DELIMS, encodeSubDelim);
}

function describe(parameterName: string | undefined): string {
  return parameterName === undefined ? 'The value' : `Parameter "${parameterName}"`;
}
