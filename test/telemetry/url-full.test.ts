import { describe, expect, it } from 'vitest';
import { urlFull } from '../../src/telemetry/url-full.js';

describe('url.full', () => {
  it('replaces the values of the sensitive parameters with REDACTED and keeps the rest byte for byte', () => {
    expect(urlFull('https://h.example/hash_scan?api_key=s3cret&hash=ab12')).toBe(
      'https://h.example/hash_scan?api_key=REDACTED&hash=ab12',
    );
    expect(
      urlFull(
        'https://sms.example/?AccessKeyId=LTAI5t&Action=SendSms&PhoneNumbers=13800000000&SecurityToken=t%2B1&Signature=abc%3D&TemplateParam=%7B%7D#x',
      ),
    ).toBe(
      'https://sms.example/?AccessKeyId=REDACTED&Action=SendSms&PhoneNumbers=REDACTED&SecurityToken=REDACTED&Signature=REDACTED&TemplateParam=REDACTED#x',
    );
  });

  it('hides user info and leaves a URL without a query alone', () => {
    expect(urlFull('https://user:pass@h.example/x')).toBe('https://REDACTED:REDACTED@h.example/x');
    expect(urlFull('https://sms.example/')).toBe('https://sms.example/');
  });
});
