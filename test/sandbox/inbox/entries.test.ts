import { describe, expect, it } from 'vitest';
import { bounded, findVerificationCode, MAX_FIELD_CHARS } from '../../../src/sandbox/inbox/entries.js';

describe('findVerificationCode', () => {
  it('takes a parameter named like a code first', () => {
    expect(findVerificationCode({ name: 'Ada', code: '482913' }, 'Order 1234567 shipped, code 482913')).toBe('482913');
    expect(findVerificationCode({ otp: 7788 }, undefined)).toBe('7788');
    expect(findVerificationCode({ verifyCode: 'AB12CD' }, undefined)).toBe('AB12CD');
    expect(findVerificationCode({ PIN: '0042' }, undefined)).toBe('0042');
  });

  it('else the first run of 4 to 8 digits in the content', () => {
    expect(findVerificationCode({}, 'Your code is 9051, valid 5 minutes')).toBe('9051');
    expect(findVerificationCode({ order: 'A-1' }, 'Hello, order A-1 shipped.')).toBeUndefined();
    expect(findVerificationCode({}, 'ref X12345 or 123456789 or 123')).toBeUndefined();
  });

  it('ignores values that are no code', () => {
    expect(findVerificationCode({ code: '<img src=x>' }, undefined)).toBeUndefined();
    expect(findVerificationCode({ code: 1.5 }, undefined)).toBeUndefined();
    expect(findVerificationCode(['482913'], undefined)).toBeUndefined();
    expect(findVerificationCode(null, undefined)).toBeUndefined();
  });
});

describe('bounded', () => {
  it('keeps short text, cuts long text to the bound with an ellipsis, never splitting a character', () => {
    expect(bounded(undefined)).toBeUndefined();
    expect(bounded('x'.repeat(MAX_FIELD_CHARS))).toBe('x'.repeat(MAX_FIELD_CHARS));
    const cut = bounded('y'.repeat(MAX_FIELD_CHARS + 1)) ?? '';
    expect(cut).toHaveLength(MAX_FIELD_CHARS);
    expect(cut.endsWith('…')).toBe(true);
    const emoji = bounded('😀'.repeat(MAX_FIELD_CHARS)) ?? '';
    expect(emoji.length).toBeLessThanOrEqual(MAX_FIELD_CHARS);
    expect(emoji).not.toMatch(/\p{Cs}/u);
  });
});
