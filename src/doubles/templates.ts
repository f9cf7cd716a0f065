import { TEMPLATE_PLACEHOLDER } from '../sms/billing.js';

/**
 * Fills the `${name}` placeholders of a template from its parameters.
 * Strings go in as they are, other values as JSON; a placeholder whose
 * parameter is missing or `null` is reported in `missing`.
 *
 * @example
 * ```ts
 * substituteTemplate('Your code is ${code}.', { code: '1234' }) // { content: 'Your code is 1234.', missing: [] }
 * ```
 */
export function substituteTemplate(
  template: string,
  params: Readonly<Record<string, unknown>>,
): {
  /** The template with every placeholder that had a value filled in; the others are left as they are. */
  readonly content: string;
  /** Names of placeholders without a value (missing or `null`), in order of appearance, repeats included. */
  readonly missing: readonly string[];
} {
  const missing: string[] = [];
  const content = template.replace(TEMPLATE_PLACEHOLDER, (placeholder, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined || value === null) {
      missing.push(name);
      return placeholder;
    }
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
  return { content, missing };
}
