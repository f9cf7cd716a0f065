import { describe, expect, it } from 'vitest';
import { SmsError } from '../../src/sms/index.js';
import { useMswServer } from '../helpers/msw.js';
import { makeClient, REQUEST, serveSms } from '../sms/sms-service.js';

const server = useMswServer();

describe('destinations.allowCountries', () => {
  const refusal = async (phoneNumbers: string | string[], options: Parameters<typeof makeClient>[0] = {}) => {
    const received = serveSms(server);
    const sms = makeClient({ destinations: { allowCountries: ['CN'] }, ...options });
    const error = await sms.send({ ...REQUEST, phoneNumbers }).catch((e: unknown) => e);
    return { error, received, sms };
  };

  it('refuses a recipient of another country before any request, naming it and not its number', async () => {
    const { error, received } = await refusal('+852 6123 4567');
    expect(error).toBeInstanceOf(SmsError);
    expect(error).toMatchObject({
      code: 'DESTINATION_BLOCKED',
      outcome: 'not_sent',
      parameter: 'phoneNumbers',
      category: 'recipient',
      attempts: 0,
    });
    expect((error as Error).message).toContain('destinations.allowCountries');
    expect((error as Error).message).not.toMatch(/6123|4567/);
    expect(received).toHaveLength(0);
  });

  it('refuses the whole send when one recipient of many is outside, naming phoneNumbers[i]', async () => {
    const { error, received } = await refusal(['13800138000', '+12025550123', '13900139000']);
    expect(error).toMatchObject({ code: 'DESTINATION_BLOCKED', parameter: 'phoneNumbers[1]' });
    expect(received).toHaveLength(0);
  });

  it('refuses a number no country holds (a non-geographic calling code)', async () => {
    const { error, received } = await refusal('+800 1234 5678');
    expect(error).toMatchObject({ code: 'DESTINATION_BLOCKED', parameter: 'phoneNumbers' });
    expect(received).toHaveLength(0);
  });

  it('sends to the countries allowed, in any spelling', async () => {
    const received = serveSms(server);
    const sms = makeClient({ destinations: { allowCountries: ['CN', 'HK'] } });
    await sms.send({ ...REQUEST, phoneNumbers: ['008613800138000', '+852 6123 4567'] });
    expect(received.map((request) => request.params.PhoneNumbers)).toEqual(['13800138000,85261234567']);
    expect(sms.toJSON()).toMatchObject({ destinations: { allowCountries: ['CN', 'HK'] } });
  });

  it('a refused destination takes nothing from the limits', async () => {
    const received = serveSms(server);
    const sms = makeClient({
      destinations: { allowCountries: ['CN'] },
      limits: { dailyBudget: 1 },
    });
    const error = await sms.send({ ...REQUEST, phoneNumbers: '+447911123456' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'DESTINATION_BLOCKED' });
    await expect(sms.send({ ...REQUEST, phoneNumbers: '13800138000' })).resolves.toMatchObject({ code: 'OK' });
    expect(received).toHaveLength(1);
    expect(sms.stats().limits).toMatchObject({ allowed: 1, refused: 0 });
  });

  it('checks the option: a non-empty array of ISO 3166 codes the metadata knows', () => {
    expect(() => makeClient({ destinations: { allowCountries: [] } })).toThrow(/^destinations\.allowCountries/);
    expect(() => makeClient({ destinations: { allowCountries: ['CN', 'XX'] } })).toThrow(
      /^destinations\.allowCountries\[1\]/,
    );
    expect(() => makeClient({ destinations: { allowCountries: 'CN' as never } })).toThrow(
      /^destinations\.allowCountries/,
    );
    expect(() => makeClient({ destinations: null as never })).toThrow(/^destinations/);
    expect(makeClient({ destinations: {} }).toJSON()).not.toHaveProperty('destinations');
  });
});
