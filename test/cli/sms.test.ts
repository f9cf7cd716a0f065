import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { canonicalQuery, computeSignature, stringToSign } from '../../src/sms/signing/index.js';
import { parseNdjson, runCli } from './run-cli.js';
import { runMain } from './run-main.js';

const MODES = [
  { mode: 'binary', run: runCli },
  { mode: 'in-process', run: runMain },
];

const SECRET = 'cli-test-secret-0123456789';
const KEY_ID = 'cli-test-key-id';

let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({
    sms: { accounts: [{ accessKeyId: KEY_ID, accessKeySecret: SECRET, plan: 'member' }] },
  });
  env = { SMS_BASE_URL: sandbox.smsUrl, SMS_ACCESS_KEY_ID: KEY_ID, SMS_ACCESS_KEY_SECRET: SECRET };
});

afterAll(async () => {
  await sandbox.close();
});

const send = ['sms', 'send', '--phone', '13800000000', '--template', 'SMS_100000001', '--param', '{"code":"123456"}'];

describe.each(MODES)('hashscan-sms sms send ($mode)', { timeout: 30_000 }, ({ run: cli }) => {
  it('sends once, GET or POST, and prints the acknowledgement; the secret and signature never show', async () => {
    for (const method of ['POST', 'GET']) {
      const before = sandbox.messages.length;
      const run = await cli([...send, '--method', method, '--sign-name', 'Acme', '-f', 'ndjson', '--verbose'], {
        env,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(parseNdjson(run.stdout)).toEqual([expect.objectContaining({ status: 'sent', code: 'OK' })]);
      expect(sandbox.messages.length).toBe(before + 1);
      expect(sandbox.messages.at(-1)).toMatchObject({
        phoneNumbers: ['13800000000'],
        signName: 'Acme',
        templateCode: 'SMS_100000001',
      });
      expect(sandbox.requests.at(-1)?.method).toBe(method);
      expect(run.stderr).toMatch(/debug /);
      expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/Signature=[^*&\s"]/);
    }
  });

  it('exits 1 on a refusal (surely not sent) and 64 on bad flags or configuration', async () => {
    const refused = await cli(['sms', 'send', '--phone', '13800000000', '--template', 'SMS_999', '-f', 'ndjson'], {
      env,
    });
    expect(refused.code).toBe(1);
    expect(parseNdjson(refused.stdout)[0]).toMatchObject({ status: 'failed', outcome: 'rejected' });
    const wrongSecret = await cli([...send, '-f', 'ndjson'], {
      env: { ...env, SMS_ACCESS_KEY_SECRET: `${SECRET}-x` },
    });
    expect(wrongSecret.code).toBe(1);
    expect(parseNdjson(wrongSecret.stdout)[0]).toMatchObject({ code: 'SignatureDoesNotMatch' });
    expect(wrongSecret.stderr).toMatch(/string-to-sign of this request: POST&%2F&AccessKeyId%3D/);
    expect(`${wrongSecret.stdout}${wrongSecret.stderr}`).not.toContain(SECRET);
    for (const args of [
      ['sms', 'send', '--template', 'SMS_100000001'],
      [...send.slice(0, -1), '[1]'],
      [...send, '--method', 'PUT'],
      ['sms'],
    ]) {
      expect((await cli(args, { env })).code, args.join(' ')).toBe(64);
    }
    const unconfigured = await cli(send, {});
    expect(unconfigured.code).toBe(64);
    expect(unconfigured.stderr).toContain('SMS_ACCESS_KEY_ID');
  });

  it('shows the whole RequestId in the table (what the README says to keep), and refuses --param numbers', async () => {
    const run = await cli(send, { env });
    expect(run.code, run.stderr).toBe(0);
    const requestId = sandbox.messages.at(-1)?.requestId;
    expect(typeof requestId).toBe('string');
    expect(run.stdout).toContain(String(requestId));
    const numeric = await cli([...send.slice(0, -1), '{"code":123456}'], { env });
    expect(numeric.code).toBe(64);
    expect(numeric.stderr).toContain('--param values must be strings');
  });

  it('names the missing setting as the command line sets it', async () => {
    const noKeyId = await cli(send, { env: { SMS_BASE_URL: env.SMS_BASE_URL, SMS_ACCESS_KEY_SECRET: SECRET } });
    expect(noKeyId.code).toBe(64);
    expect(noKeyId.stderr).toContain('--access-key-id or SMS_ACCESS_KEY_ID');
    expect(noKeyId.stderr).not.toContain('accessKeyId');
  });

  it('sends to an in-process sandbox with --sandbox', async () => {
    const run = await cli([...send, '--sandbox'], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/sent\s+OK/);
  });
});

describe.each(MODES)('hashscan-sms sms sign ($mode)', { timeout: 30_000 }, ({ run: cli }) => {
  const params = {
    AccessKeyId: KEY_ID,
    Action: 'SendSms',
    PhoneNumbers: '13800000000',
    TemplateParam: '{"code":"1 2"}',
    Timestamp: '2024-05-01T08:09:10Z',
  };

  it('prints the canonical query and string-to-sign of the library, never the secret or a signature', async () => {
    const signature = computeSignature('GET', params, SECRET);
    const query = new URLSearchParams({ ...params, Signature: signature }).toString();
    const run = await cli(['sms', 'sign', '--method', 'GET', '--query', query], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Canonical query:\n${canonicalQuery(params)}\n`);
    expect(run.stdout).toContain(`String to sign:\n${stringToSign('GET', params)}\n`);
    expect(run.stdout).toContain('Signature: matches');
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    expect(`${run.stdout}${run.stderr}`).not.toContain(signature);

    const mismatch = await cli(['sms', 'sign', '--method', 'POST', '--query', query, '-f', 'json'], { env });
    expect(mismatch.code).toBe(1);
    expect(JSON.parse(mismatch.stdout)).toMatchObject({ method: 'POST', signatureMatches: false });
  });

  it('takes parameters one by one with --set, and refuses bad input with 64', async () => {
    const run = await cli(['sms', 'sign', '-f', 'json', '--set', 'b=x y', '--set', 'A=1'], {});
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      method: 'POST',
      canonicalQuery: 'A=1&b=x%20y',
      stringToSign: 'POST&%2F&A%3D1%26b%3Dx%2520y',
    });
    expect((await cli(['sms', 'sign'], {})).code).toBe(64);
    expect((await cli(['sms', 'sign', '--set', 'novalue'], {})).code).toBe(64);
  });
});
