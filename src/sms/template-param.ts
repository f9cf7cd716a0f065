import { invalidParameter, signableString } from './invalid-parameter.js';

/**
 * Template variables, name → value, e.g. `{ code: '123456' }`. Sent as the
 * JSON text of the object.
 */
export type TemplateParams = Readonly<Record<string, string | number | boolean>>;

/** A checked `templateParam`: the JSON text to send and the variables it holds. */
export interface NormalizedTemplateParam {
  readonly json: string;
  readonly values: Readonly<Record<string, unknown>>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

const isTemplateValue = (value: unknown): boolean =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/**
 * Checks a `templateParam` given as an object or as JSON text.
 *
 * - An object must be a plain object of strings, finite numbers and booleans;
 *   it is sent as `JSON.stringify(object)`.
 * - A string must be the JSON text of an object (`"[1]"` or `"42"` can only
 *   be a mistake for a name → value map); it is sent verbatim.
 *
 * @throws {SmsError} `InvalidParameter` naming `templateParam`, before any request.
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
    return { json, values: parsed };
  }
  if (!isPlainObject(value)) {
    throw invalidParameter(parameter, 'must be an object of template variables or its JSON text');
  }
  for (const [name, variable] of Object.entries(value)) {
    if (!isTemplateValue(variable)) {
      throw invalidParameter(
        parameter,
        `variable ${JSON.stringify(name)} must be a string, a finite number or a boolean`,
      );
    }
  }
  return { json: JSON.stringify(value), values: value };
}
