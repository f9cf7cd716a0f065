import { invalidParameter, signableString } from './invalid-parameter.js';
import { guarded } from './read-field.js';

/**
 * Template variables, name → value, e.g. `{ code: '123456' }`. Sent as the
 * JSON text of an object whose values are all strings: the vendor protocol
 * the service follows expects string values (it rejects a number with
 * `isv.INVALID_JSON_PARAM`), so a finite number is sent as `String(n)`
 * (`7` → `"7"`, `1.5` → `"1.5"`, `-0` → `"0"`, `1e21` → `"1e+21"`) and a
 * boolean as `"true"` or `"false"`. Any other value (`NaN`, `Infinity`,
 * `null`, `undefined`, a bigint, an object or array, a function) is refused
 * client-side, naming the variable.
 */
export type TemplateParams = Readonly<Record<string, string | number | boolean>>;

/** A checked `templateParam`: the JSON text to send and the variables it holds (all strings). */
export interface NormalizedTemplateParam {
  readonly json: string;
  readonly values: Readonly<Record<string, string>>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** What a value is, for messages; never its text (`String()` can throw or leak). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    return Number.isFinite(value) ? 'a number' : 'a non-finite number';
  }
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The string a variable is sent as, or `undefined` for a value that has none. */
function templateString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // A checked number primitive: `String()` cannot throw here.
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function checkVariables(
  entries: readonly [string, unknown][],
  parameter: string,
  convert: boolean,
): Record<string, string> {
  const values: Record<string, string> = Object.create(null);
  for (const [name, value] of entries) {
    const variable = `variable ${JSON.stringify(name)}`;
    if (!name.isWellFormed()) throw invalidParameter(parameter, 'has a variable name with a lone UTF-16 surrogate');
    const text = convert ? templateString(value) : typeof value === 'string' ? value : undefined;
    if (text === undefined) {
      throw invalidParameter(
        parameter,
        convert
          ? `${variable} must be a string, a finite number or a boolean, got ${kindOf(value)}`
          : `${variable} must be a JSON string in JSON text, got ${kindOf(value)} (pass an object to have numbers and booleans sent as strings)`,
      );
    }
    if (!text.isWellFormed()) throw invalidParameter(parameter, `${variable} contains a lone UTF-16 surrogate`);
    values[name] = text;
  }
  return values;
}

/**
 * Checks a `templateParam` given as an object or as JSON text.
 *
 * - An object must be a plain object (or one without prototype) of strings,
 *   finite numbers and booleans; it is sent as the JSON text of the same
 *   names with every value as a string (see {@link TemplateParams}).
 * - A string must be the JSON text of an object whose values are all
 *   strings; it is sent verbatim.
 *
 * @throws {SmsError} `InvalidParameter` naming `templateParam` (and the variable at fault), before any request.
 */
export function normalizeTemplateParam(value: unknown, parameter = 'templateParam'): NormalizedTemplateParam {
  if (value === undefined) throw invalidParameter(parameter, 'is required');
  if (typeof value === 'string') {
    const json = signableString(value, parameter);
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      throw invalidParameter(parameter, 'is not valid JSON');
    }
    if (!isPlainObject(parsed)) throw invalidParameter(parameter, 'must be the JSON text of an object');
    return { json, values: checkVariables(Object.entries(parsed), parameter, false) };
  }
  // A Proxy or getters can throw while being inspected: that is bad input too, not a crash.
  const entries = guarded(parameter, () => {
    if (!isPlainObject(value)) {
      throw invalidParameter(parameter, 'must be an object of template variables or its JSON text');
    }
    return Object.entries(value);
  });
  const values = checkVariables(entries, parameter, true);
  return { json: JSON.stringify(values), values };
}
