/**
 * `records` and `faults` replace the sandbox's tables (documented in their TSDoc and docs/testing.md);
 * spreading the exported defaults extends them. Both halves are pinned: a change to either meaning
 * fails here.
 */
import { describe, expect, it } from 'vitest';
import {
  EICAR_RECORD,
  recordFor,
  SANDBOX_FAULT_HASHES,
  SANDBOX_FAULT_PHONE_NUMBERS,
  SANDBOX_HASH_FAULTS,
  SANDBOX_HASH_RECORDS,
  SANDBOX_SMS_FAULTS,
} from '../../src/sandbox/index.js';
import { smsClient, useSandbox } from './inbox/inbox-helpers.js';

const start = useSandbox();
const mine = recordFor('hashscan-sms default-tables test sample');
const MY_FAULT = 'd'.repeat(64);

/** The lookup's answer for `hash`: `is_virus`, or the HTTP status of a fault. */
async function lookUp(url: string, apiKey: string, hash: string): Promise<boolean | number> {
  const response = await fetch(`${url}/hash_scan?api_key=${apiKey}&hash=${hash}`);
  if (response.status !== 200) return response.status;
  return ((await response.json()) as { is_virus?: boolean }).is_virus ?? false;
}

describe('records', () => {
  it('given alone, replace the defaults: EICAR is not detected', async () => {
    const box = await start({ hashScan: { records: [mine] } });
    expect(await lookUp(box.url, box.apiKey, mine.sha256)).toBe(true);
    expect(await lookUp(box.url, box.apiKey, EICAR_RECORD.sha256)).toBe(false);
  });

  it('spread after SANDBOX_HASH_RECORDS, extend them', async () => {
    const box = await start({ hashScan: { records: [...SANDBOX_HASH_RECORDS, mine] } });
    expect(await lookUp(box.url, box.apiKey, mine.sha256)).toBe(true);
    expect(await lookUp(box.url, box.apiKey, EICAR_RECORD.md5)).toBe(true);
  });
});

describe('faults', () => {
  it('of the lookup, given alone, replace the default fault hashes', async () => {
    const box = await start({ hashScan: { faults: { [MY_FAULT]: 'http-status' } } });
    expect(await lookUp(box.url, box.apiKey, MY_FAULT)).toBe(503);
    expect(await lookUp(box.url, box.apiKey, SANDBOX_FAULT_HASHES['http-status'])).toBe(false);
  });

  it('of the lookup, spread after SANDBOX_HASH_FAULTS, extend them', async () => {
    const box = await start({ hashScan: { faults: { ...SANDBOX_HASH_FAULTS, [MY_FAULT]: 'http-status' } } });
    expect(await lookUp(box.url, box.apiKey, MY_FAULT)).toBe(503);
    expect(await lookUp(box.url, box.apiKey, SANDBOX_FAULT_HASHES['http-status'])).toBe(503);
  });

  /** The `Code` the SMS double answered a send to `phoneNumbers` with. */
  const send = async (box: Parameters<typeof smsClient>[0], phoneNumbers: string) => {
    const request = { phoneNumbers, templateCode: 'SMS_100000001', templateParam: { code: '123456' } };
    await smsClient(box)
      .send(request)
      .catch(() => undefined);
    return box.requests.at(-1)?.outcome;
  };

  it('of SMS, given alone, replace the default fault numbers; spread, extend them', async () => {
    const own = { '13800000009': 'isv.DAY_LIMIT_CONTROL' };
    const alone = await start({ sms: { faults: own } });
    expect(await send(alone, '13800000009')).toBe('isv.DAY_LIMIT_CONTROL');
    expect(await send(alone, SANDBOX_FAULT_PHONE_NUMBERS.rate_limit)).toBe('OK');
    await alone.close();
    const spread = await start({ sms: { faults: { ...SANDBOX_SMS_FAULTS, ...own } } });
    expect(await send(spread, '13800000009')).toBe('isv.DAY_LIMIT_CONTROL');
    expect(await send(spread, SANDBOX_FAULT_PHONE_NUMBERS.rate_limit)).toBe('isv.BUSINESS_LIMIT_CONTROL');
  });
});
