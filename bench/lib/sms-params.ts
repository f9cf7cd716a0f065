import { randomBytes, randomUUID } from 'node:crypto';

/** One request to sign: method, parameters (no Signature) and secret. */
export interface SigningCase {
  readonly method: 'GET' | 'POST';
  readonly params: Record<string, string>;
  readonly secret: string;
}

const SIGN_NAMES = ['Acme', 'Acme Shop', '阿里云短信测试', 'Café*Ünïcode'];
const NAMES = ['Ann', "O'Neil (VIP)!", '张三', 'Zoë 🎉', 'a/b+c=d~e', 'line\nbreak\ttab'];

/** `count` realistic SendSms parameter sets covering every encoding rule (space, * ~ / !'(), non-ASCII, emoji, empty). */
export function signingCases(count: number): SigningCase[] {
  return Array.from({ length: count }, (_, i) => {
    const params: Record<string, string> = {
      AccessKeyId: `LTAI${randomBytes(8).toString('hex')}`,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: i % 3 === 0 ? '13800138000,13900139000' : '13800138000',
      RegionId: 'cn-hangzhou',
      SignName: SIGN_NAMES[i % SIGN_NAMES.length] as string,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_154950909',
      TemplateParam: JSON.stringify({ code: String(100000 + i), name: NAMES[i % NAMES.length] }),
      Timestamp: new Date(1_714_550_950_000 + i * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
    };
    if (i % 4 === 0) params.OutId = '';
    if (i % 5 === 0) params.SmsUpExtendCode = '90999';
    return { method: i % 2 === 0 ? 'POST' : 'GET', params, secret: `secret+/=&${i}` };
  });
}
