import { invalidParameter } from './invalid-parameter.js';
import { normalizeTemplateParam, type TemplateParams } from './template-param.js';

/** Characters per billed message (spec parts 1 and 8). */
const CHARACTERS_PER_MESSAGE = 50;
/** `${name}`: a name is anything up to the closing brace. Shared with the sandbox's service double. */
export const TEMPLATE_PLACEHOLDER = /\$\{([^{}]*)\}/g;

/**
 * Substitutes `${name}` placeholders in a template's content with the
 * template variables, the way the service does before counting characters.
 * Each placeholder is replaced once (a value containing `${…}` is not
 * expanded again); variables the template does not use are ignored.
 *
 * A placeholder with no variable throws rather than being left in place: a
 * half-rendered text would both mislead a billing estimate and, sent for
 * real, most likely be refused.
 *
 * @param template - The template content, e.g. `Your code is ${code}.`
 * @param params - The template variables, as passed to `send` (an object or its JSON text).
 * @returns The content after substitution.
 * @throws {SmsError} `InvalidParameter` (with `parameter: 'templateParam'`)
 *   for a placeholder without a variable or for malformed variables.
 *
 * @example
 * ```ts
 * renderTemplate('Your code is ${code}.', { code: '123456' }) // "Your code is 123456."
 * ```
 */
export function renderTemplate(template: string, params: TemplateParams | string): string {
  if (typeof template !== 'string') throw invalidParameter('template', 'must be a string');
  const { values } = normalizeTemplateParam(params);
  return template.replace(TEMPLATE_PLACEHOLDER, (_placeholder, name: string) => {
    // Every checked variable is a string (numbers and booleans already in their string form).
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) {
      throw invalidParameter('templateParam', `has no variable ${JSON.stringify(name)} for the template's placeholder`);
    }
    return value;
  });
}

/**
 * Estimates how many messages a successful send is billed as: 1 per 50
 * characters of the content after substitution, rounded up, and at least 1.
 * Characters are Unicode code points, so an emoji such as 😀 counts once
 * (but a composed emoji, e.g. a family joined by zero-width joiners, counts
 * each of its code points).
 *
 * Per the service's billing rules (spec parts 1 and 8): a failed send is not
 * charged, and when the service does not hold the template's content the
 * send counts as 1 message whatever its length; pass `undefined` for that
 * case. The signature is not counted, as the rules speak only of the
 * template content. How a send to several numbers is billed is not
 * specified; presumably per recipient.
 *
 * @param content - The substituted content (see {@link renderTemplate}), or
 *   `undefined` when the service holds no content for the template.
 * @returns The estimated number of billed messages, at least 1.
 *
 * @example
 * ```ts
 * estimateSmsCount(renderTemplate(template, { code: '123456' })) // 1
 * estimateSmsCount('x'.repeat(51))                              // 2
 * ```
 */
export function estimateSmsCount(content: string | undefined): number {
  if (content === undefined) return 1;
  if (typeof content !== 'string') throw invalidParameter('content', 'must be a string');
  // Spreading a string iterates code points, not UTF-16 units.
  return Math.max(1, Math.ceil([...content].length / CHARACTERS_PER_MESSAGE));
}
