import { describe, expect, it } from 'vitest';
import { canonicalPhone, isPhoneRegion } from '../../src/phone/canonical-phone.js';
import { spellingsOf } from './spellings.js';

const e164 = (input: string, region?: Parameters<typeof canonicalPhone>[1]): string | undefined => {
  const parsed = canonicalPhone(input, region);
  return parsed.ok ? parsed.phone.e164 : undefined;
};

describe('canonicalPhone', () => {
  it('reads every spelling of one mainland number as one E.164 number', () => {
    const spellings = spellingsOf('13800138000');
    expect(spellings).toContain('１３８００１３８０００');
    expect(new Set(spellings.map((spelling) => e164(spelling)))).toEqual(new Set(['+8613800138000']));
  });

  it('gives the calling code, national number and region', () => {
    expect(canonicalPhone('+8613800138000')).toEqual({
      ok: true,
      phone: { e164: '+8613800138000', callingCode: '86', nationalNumber: '13800138000', region: 'CN' },
    });
  });

  it('reads a national number in the default region it is given', () => {
    expect(e164('2025550123', 'US')).toBe('+12025550123');
    expect(e164('+12025550123', 'CN')).toBe('+12025550123');
  });

  it('names why a string is not a phone number', () => {
    expect(canonicalPhone('hello')).toEqual({ ok: false, problem: 'not_a_number' });
    expect(canonicalPhone('12345')).toEqual({ ok: false, problem: 'not_possible' });
    expect(canonicalPhone('+86 1380013800012345678')).toMatchObject({ ok: false });
    expect(canonicalPhone('')).toMatchObject({ ok: false });
  });

  it('knows regions by their ISO 3166 code', () => {
    expect(isPhoneRegion('CN')).toBe(true);
    expect(isPhoneRegion('XX')).toBe(false);
    expect(isPhoneRegion(86)).toBe(false);
  });
});
