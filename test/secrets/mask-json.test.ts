import { describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/json/strict-parse.js';
import { maskJson } from '../../src/secrets/mask-json.js';
import { createRedactor } from '../../src/secrets/redact.js';

const KEY = 'k3y/Pl+s==';
const redact = createRedactor({ secrets: [KEY], params: { api_key: 'full' } });
const read = (text: string) => maskJson(text, parseStrictJson(text, { freeze: true }).value, redact);

describe('masking a parsed body', () => {
  it('gives the parsed value itself when nothing in it is secret', () => {
    const text = '{"a":["x",{"b":"y"}],"c":1}';
    const { value } = parseStrictJson(text, { freeze: true });
    expect(maskJson(text, value, redact)).toBe(value);
  });

  it('masks keys and values at any depth, however the body escaped them, in a frozen copy', () => {
    const masked = read(
      `{"source":"engine k3y\\/Pl\\u002Bs==","data":{"k3y/Pl+s==":["api_key=x", 2, null]},"__proto__":"${KEY}"}`,
    );
    expect(masked).toEqual({ source: 'engine ***', data: { '***': ['api_key=***', 2, null] }, ['__proto__']: '***' });
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    expect(Object.isFrozen(masked)).toBe(true);
    expect(Object.isFrozen((masked as { data: { '***': unknown } }).data['***'])).toBe(true);
    expect(JSON.stringify(masked)).not.toContain('k3y');
  });

  it('masks a secret whose letters a body escaped too (the text alone does not show it)', () => {
    expect(read('{"m":"\\u006b3y/Pl+s=="}')).toEqual({ m: '***' });
  });
});
