import * as dysmsapi from '@alicloud/dysmsapi20170525';
import { $OpenApiUtil } from '@alicloud/openapi-core';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';

// A CommonJS package compiled from `export default class Client`. Node (and tsc) see the class at
// `namespace.default.default`; vitest's interop unwraps one level: take whichever holds it.
const { SendSmsRequest } = dysmsapi;
const Dysmsapi = (
  'default' in dysmsapi.default ? dysmsapi.default.default : dysmsapi.default
) as typeof dysmsapi.default.default;

/** The vendor's own SMS client, pointed at the sandbox root as it would be at the real service. */
function vendorClient(sandbox: Sandbox, accessKeySecret = sandbox.accessKeySecret): InstanceType<typeof Dysmsapi> {
  const config = new $OpenApiUtil.Config({
    accessKeyId: sandbox.accessKeyId,
    accessKeySecret,
    endpoint: new URL(sandbox.url).host,
    protocol: 'HTTP',
    // The RPC v1.0 signing (HMAC-SHA1, `Signature` parameter) the spec describes, not ACS3.
    signatureAlgorithm: 'v2',
  });
  return new Dysmsapi(config);
}

describe('the vendor SMS client against the sandbox (path fixed at /)', () => {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('sends a message unchanged, at the spec address {base}/', async () => {
    sandbox = await startSandbox();
    const request = new SendSmsRequest({
      phoneNumbers: '13800000000',
      templateCode: 'SMS_100000001',
      templateParam: JSON.stringify({ code: '1234' }),
      signName: 'Acme',
    });
    const response = await vendorClient(sandbox).sendSms(request);
    expect(response.body).toMatchObject({ code: 'OK', message: 'OK' });
    expect(response.body?.requestId).toBe(sandbox.messages[0]?.requestId);
    expect(sandbox.requests.map((entry) => [entry.path, entry.outcome])).toEqual([['/', 'OK']]);
    expect(sandbox.messages[0]).toMatchObject({ content: 'Your verification code is 1234. It expires in 5 minutes.' });
  });

  it('gets SignatureDoesNotMatch in the service shape when the secret is wrong', async () => {
    sandbox = await startSandbox();
    const request = new SendSmsRequest({
      phoneNumbers: '13800000000',
      templateCode: 'SMS_100000001',
      templateParam: '{}',
    });
    await expect(vendorClient(sandbox, 'not-the-secret').sendSms(request)).rejects.toMatchObject({
      code: 'SignatureDoesNotMatch',
    });
    expect(sandbox.messages).toEqual([]);
  });
});
