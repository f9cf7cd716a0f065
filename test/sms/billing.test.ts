// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${name}` is the template placeholder syntax under test, not a mistyped template literal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateSmsCount, renderTemplate, SmsError } from '../../src/sms/index.js';

describe('renderTemplate', () => {
  it('substitutes every ${name} placeholder', () => {
    expect(renderTemplate('Your code is ${code}, valid ${minutes} min. ${code}!', { code: '1234', minutes: 5 })).toBe(
      'Your code is 1234, valid 5 min. 1234!',
    );
  });

  it('accepts the variables as JSON text, as send does', () => {
    expect(renderTemplate('Hi ${name}', '{"name":"阿里"}')).toBe('Hi 阿里');
  });

  it('renders numbers and booleans as text, and ignores unused variables', () => {
    expect(renderTemplate('${n}/${ok}', { n: 1.5, ok: false, unused: 'x' })).toBe('1.5/false');
  });

  it('does not expand a placeholder inside a substituted value', () => {
    expect(renderTemplate('${a}', { a: '${b}', b: 'no' })).toBe('${b}');
  });

  it('leaves text without placeholders, and lone $ or braces, alone', () => {
    expect(renderTemplate('Cost: $5 {x} $ {y}', {})).toBe('Cost: $5 {x} $ {y}');
  });

  it.each([
    ['a missing variable', 'Code ${code}', {}],
    ['a variable inherited from Object.prototype', '${toString}', {}],
    ['a null variable in JSON text', '${a}', '{"a":null}'],
    ['an object variable in JSON text', '${a}', '{"a":{"b":1}}'],
    ['variables that are not JSON', '${a}', 'nope'],
  ])('throws InvalidParameter for %s', (_name, template, params) => {
    expect(() => renderTemplate(template, params)).toThrow(SmsError);
    expect(() => renderTemplate(template, params)).toThrow(
      expect.objectContaining({ code: 'InvalidParameter', parameter: 'templateParam' }),
    );
  });
});

describe('estimateSmsCount', () => {
  it.each([
    ['empty content', '', 1],
    ['1 character', 'a', 1],
    ['50 characters', 'a'.repeat(50), 1],
    ['51 characters', 'a'.repeat(51), 2],
    ['100 characters', 'a'.repeat(100), 2],
    ['101 characters', 'a'.repeat(101), 3],
    ['50 CJK characters', '短'.repeat(50), 1],
    ['50 emoji (100 UTF-16 units)', '😀'.repeat(50), 1],
    ['51 emoji', '😀'.repeat(51), 2],
    ['49 letters and an emoji', `${'a'.repeat(49)}😀`, 1],
    ['unknown content', undefined, 1],
  ])('%s → %s', (_name, content, count) => {
    expect(estimateSmsCount(content)).toBe(count);
  });

  it('is ceil(code points / 50), at least 1, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (content) => {
        const count = estimateSmsCount(content);
        const codePoints = Array.from(content).length;
        expect(count).toBeGreaterThanOrEqual(1);
        expect(count * 50).toBeGreaterThanOrEqual(codePoints);
        expect((count - 1) * 50).toBeLessThan(Math.max(codePoints, 1));
      }),
    );
  });

  it('counts the rendered template', () => {
    const content = renderTemplate('您的验证码是${code}，5分钟内有效。请勿泄露给他人。'.repeat(3), { code: '123456' });
    expect(Array.from(content).length).toBe(84);
    expect(estimateSmsCount(content)).toBe(2);
  });
});
