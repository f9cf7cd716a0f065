import { followSecrets, SecretSet } from './secret-set.js';
import { escapeRegExp, secretPattern } from './spellings.js';

/** How the value of a sensitive parameter is shown in logs and errors. */
export type MaskStyle = 'full' | 'partial';

/** What a {@link Redactor} hides. */
export interface RedactionRules {
  /**
   * Secret values hidden wherever they appear, raw, URL/form-encoded or JSON-escaped. A
   * {@link SecretSet} may grow later (rotating credentials): the redactor
   * follows it.
   */
  readonly secrets: readonly string[] | SecretSet;
  /** Query or form parameters whose values are masked, e.g. `{ api_key: 'full' }`. */
  readonly params: Readonly<Record<string, MaskStyle>>;
}

/** Replaces every secret in a text with `***`. */
export type Redactor = (text: string) => string;

const MASK = '***';

/** Shorter secrets are masked only as parameter values (see {@link createRedactor}). */
const MIN_SECRET_LENGTH = 4;

/** Shows a few leading characters of an identifier (never of a secret) so logs stay traceable. */
function partial(value: string): string {
  return value.length > 8 ? `${value.slice(0, 4)}${MASK}` : MASK;
}

/**
 * Builds the function that scrubs log lines, error messages and stacks.
 * Secrets shorter than 4 characters are masked only as parameter values, so
 * that a tiny test key does not mangle every word it happens to match.
 */
export function createRedactor(rules: RedactionRules): Redactor {
  const set =
    rules.secrets instanceof SecretSet ? rules.secrets : new SecretSet(rules.secrets, Number.POSITIVE_INFINITY);
  const secretPatternNow = followSecrets(set, (secrets) => secretPattern(secrets, MIN_SECRET_LENGTH));
  const names = Object.keys(rules.params).map(escapeRegExp);
  const paramPattern =
    names.length > 0 ? new RegExp(`(^|[?&\\s"'])(${names.join('|')})=([^&#\\s"']*)`, 'g') : undefined;

  return (text) => {
    const pattern = secretPatternNow();
    let out = pattern ? text.replace(pattern, MASK) : text;
    if (paramPattern) {
      out = out.replace(paramPattern, (_m, lead: string, name: string, value: string) =>
        value === '' || value === MASK
          ? `${lead}${name}=${value}`
          : `${lead}${name}=${rules.params[name] === 'partial' ? partial(decodeSafe(value)) : MASK}`,
      );
    }
    return out;
  };
}

function decodeSafe(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/**
 * Text for any thrown value, without calling its own conversion: `String(x)`
 * throws for a null-prototype object or a throwing `toString`, which in an
 * error path would replace the real failure with a `TypeError`.
 */
function describeThrown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value);
  return `a thrown ${typeof value} that is not an Error`;
}

/**
 * Copies an error chain with every message and stack redacted, keeping
 * `name` and a string `code` (e.g. `ECONNREFUSED`). Used for `cause` so that
 * third-party errors (ky's carry the full URL) never reach the caller raw.
 */
export function redactError(error: unknown, redact: Redactor, depth = 0): Error {
  const source = error instanceof Error ? error : new Error(describeThrown(error));
  const cause = depth < 4 && source.cause !== undefined ? redactError(source.cause, redact, depth + 1) : undefined;
  const copy = new Error(redact(source.message), cause === undefined ? undefined : { cause });
  Object.defineProperty(copy, 'name', { value: source.name, enumerable: false, configurable: true });
  copy.stack = redact(source.stack ?? `${source.name}: ${source.message}`);
  const code = (source as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  return copy;
}
