import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SendSmsOptions, type SendSmsRequest, SmsError } from '../../src/sms/index.js';
import { MAX_PHONE_NUMBERS } from '../../src/sms/phone-numbers.js';
import { useMswServer } from '../helpers/msw.js';
import { makeClient, REQUEST, serveSms } from './sms-service.js';

const server = useMswServer();

/** Sends and returns the rejection, which must be a client-side InvalidParameter naming `field`, with no request made. */
async function refused(field: string, request: unknown, options?: unknown): Promise<SmsError> {
  const received = serveSms(server);
  const error = await makeClient()
    .send(request as SendSmsRequest, options as SendSmsOptions)
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SmsError);
  expect(error).toMatchObject({ code: 'InvalidParameter', outcome: 'not_sent', parameter: field, attempts: 0 });
  expect((error as Error).message.startsWith(`${field}: `)).toBe(true);
  expect(received).toHaveLength(0);
  return error as SmsError;
}

const throwingToString = { toString: () => expect.fail('toString must not be called') };
const nullPrototype = Object.create(null) as object;
const throwingGetter = (): object =>
  Object.defineProperty({}, 'code', {
    enumerable: true,
    get: () => {
      throw new Error('getter');
    },
  });
const revoked = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

describe('phoneNumbers: a string is exactly one number', () => {
  it.each([
    ['phoneNumbers', '13800138000,13900139000'],
    ['phoneNumbers', '13800138000, 13900139000'],
    ['phoneNumbers', ',13800138000'],
    ['phoneNumbers', '++8613800138000'],
    ['phoneNumbers', '+86 138 0013 8000 ext 5'],
    ['phoneNumbers', '13800138000;ext=1'],
    ['phoneNumbers', 'tel:+8613800138000'],
    ['phoneNumbers', '+8613800138000abc'],
    ['phoneNumbers', '12345'],
    ['phoneNumbers', `${' '.repeat(30)}13800138000`],
    ['phoneNumbers', '8613800138000+'],
    ['phoneNumbers', '+'],
    ['phoneNumbers', '1234'],
    ['phoneNumbers', '1'.repeat(21)],
    ['phoneNumbers', 'abcdefg'],
    ['phoneNumbers[1]', ['13800138000', '13900139000,13700137000']],
    ['phoneNumbers[0]', ['1380013800a']],
    ['phoneNumbers[2]', ['13800138000', '+8613900139000', '1234']],
  ])('%s: %j is refused', async (field, phoneNumbers) => {
    const error = await refused(field, { ...REQUEST, phoneNumbers });
    // The value is personal data: never quoted in the message.
    expect(error.message).not.toMatch(/138001/);
  });

  it('says how to send to several numbers', async () => {
    const error = await refused('phoneNumbers', { ...REQUEST, phoneNumbers: '13800138000,13900139000' });
    expect(error.message).toContain('pass several as an array');
  });

  it('accepts national, E.164, 86- and 00-prefixed numbers, spaced, dashed or full-width, and sends each in one form', async () => {
    const received = serveSms(server);
    const client = makeClient();
    const spellings = [
      '13800138000',
      '+8613900139000',
      '8613700137000',
      '008613600136000',
      ' 135 0013 5000 ',
      '134-0013-4000\n',
      '+86 (133) 0013-3000',
      '１３２００１３２０００',
      '+852 6123 4567',
      '+1 202-555-0123',
    ];
    for (const phoneNumbers of spellings) await client.send({ ...REQUEST, phoneNumbers });
    // A mainland number as its 11 digits (the vendor's domestic form); any other as calling code and number.
    expect(received.map((request) => request.params.PhoneNumbers)).toEqual([
      '13800138000',
      '13900139000',
      '13700137000',
      '13600136000',
      '13500135000',
      '13400134000',
      '13300133000',
      '13200132000',
      '85261234567',
      '12025550123',
    ]);
  });

  it("reads a national number in the client's defaultRegion", async () => {
    const received = serveSms(server);
    await makeClient({ defaultRegion: 'US' }).send({ ...REQUEST, phoneNumbers: '(202) 555-0123' });
    await makeClient({ defaultRegion: 'US' }).send({ ...REQUEST, phoneNumbers: '+8613800138000' });
    expect(received.map((request) => request.params.PhoneNumbers)).toEqual(['12025550123', '13800138000']);
    expect(() => makeClient({ defaultRegion: 'XX' as never })).toThrow(/^defaultRegion/);
  });

  it('any string with a character no phone number is written with is refused (property)', async () => {
    const client = makeClient({ retry: false });
    await fc.assert(
      fc.asyncProperty(
        // A mainland number with one foreign character somewhere in it (letters, signs, control characters …).
        fc
          .tuple(
            fc.stringMatching(/^1[3-9][0-9]{0,9}$/),
            fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
            fc.stringMatching(/^[0-9]{0,9}$/),
          )
          .filter(([, odd]) => !/^[\s0-9\uFF10-\uFF19().\uFF08\uFF09\-\u2010-\u2015\u2212,]$/u.test(odd))
          .map(([head, odd, tail]) => `${head}${odd}${tail}`),
        async (phoneNumbers) => {
          const error = await client.send({ ...REQUEST, phoneNumbers }).catch((e: unknown) => e);
          expect(error).toMatchObject({ code: 'InvalidParameter', parameter: 'phoneNumbers', outcome: 'not_sent' });
        },
      ),
      { numRuns: 100 },
    );
  }, 30_000);
});

describe('phoneNumbers as an array', () => {
  it('sends every distinct number, comma-joined, in order', async () => {
    const received = serveSms(server);
    await makeClient().send({ ...REQUEST, phoneNumbers: ['13800138000', '+8613900139000'] });
    expect(received[0]?.params.PhoneNumbers).toBe('13800138000,13900139000');
  });

  it('refuses the same number twice: one phone would get the message twice', async () => {
    const error = await refused('phoneNumbers[2]', {
      ...REQUEST,
      phoneNumbers: ['13800138000', '13900139000', '13800138000'],
    });
    expect(error.message).toBe('phoneNumbers[2]: repeats phoneNumbers[0] (the same phone, in any spelling)');
  });

  it('refuses one phone in two spellings: the duplicate check keys on the canonical number', async () => {
    await refused('phoneNumbers[1]', {
      ...REQUEST,
      phoneNumbers: ['13900139000', '+8613900139000', '8613900139000', '008613900139000'],
    });
    for (const other of [
      '+8613900139000',
      '8613900139000',
      '008613900139000',
      '139 0013 9000',
      '１３９００１３９０００',
    ]) {
      await refused('phoneNumbers[1]', { ...REQUEST, phoneNumbers: ['13900139000', other] });
    }
  });

  it(`holds at most ${MAX_PHONE_NUMBERS} numbers`, async () => {
    const numbers = (count: number) => Array.from({ length: count }, (_, i) => String(13800000000 + i));
    const error = await refused('phoneNumbers', { ...REQUEST, phoneNumbers: numbers(MAX_PHONE_NUMBERS + 1) });
    expect(error.message).toContain(`at most ${MAX_PHONE_NUMBERS}`);
    const received = serveSms(server);
    await makeClient().send({ ...REQUEST, phoneNumbers: numbers(MAX_PHONE_NUMBERS) });
    expect(received[0]?.params.PhoneNumbers?.split(',')).toHaveLength(MAX_PHONE_NUMBERS);
  });

  it('a hole in a sparse array is a missing number, not a skipped one', async () => {
    // biome-ignore lint/suspicious/noSparseArray: the subject of the test
    await refused('phoneNumbers[1]', { ...REQUEST, phoneNumbers: ['13800138000', , '13900139000'] });
  });
});

describe('template variables are sent as strings', () => {
  it('finite numbers and booleans become their string form; strings stay as they are', async () => {
    const received = serveSms(server);
    await makeClient().send({
      ...REQUEST,
      templateParam: { code: 123456, amount: 1.5, zero: -0, big: 1e21, ok: true, no: false, name: 'Ann' },
    });
    expect(JSON.parse(received[0]?.params.TemplateParam ?? '')).toEqual({
      code: '123456',
      amount: '1.5',
      zero: '0',
      big: '1e+21',
      ok: 'true',
      no: 'false',
      name: 'Ann',
    });
  });

  it('a variable map without prototype is accepted', async () => {
    const received = serveSms(server);
    const templateParam = Object.assign(Object.create(null) as Record<string, string>, { code: '1' });
    await makeClient().send({ ...REQUEST, templateParam });
    expect(received[0]?.params.TemplateParam).toBe('{"code":"1"}');
  });

  it.each([
    ['NaN', Number.NaN, 'NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'a non-finite number'],
    ['-Infinity', Number.NEGATIVE_INFINITY, 'a non-finite number'],
    ['null', null, 'null'],
    ['undefined', undefined, 'a undefined'],
    ['a bigint', 10n, 'a bigint'],
    ['a symbol', Symbol('s'), 'a symbol'],
    ['a function', () => '1', 'a function'],
    ['an object', { a: '1' }, 'an object'],
    ['a Date', new Date(0), 'an object'],
    ['an array', ['1'], 'an array'],
    ['an object with a throwing toString', throwingToString, 'an object'],
    ['a null-prototype object', nullPrototype, 'an object'],
  ])('%s is refused, naming the variable', async (_name, value, kind) => {
    const error = await refused('templateParam', { ...REQUEST, templateParam: { code: '1', bad: value } });
    expect(error.message).toBe(
      `templateParam: variable "bad" must be a string, a finite number or a boolean, got ${kind}`,
    );
  });

  it('JSON text must hold strings only (it is sent verbatim)', async () => {
    const error = await refused('templateParam', { ...REQUEST, templateParam: '{"code":1234}' });
    expect(error.message).toContain('variable "code" must be a JSON string in JSON text, got a number');
    await refused('templateParam', { ...REQUEST, templateParam: '{"code":null}' });
    await refused('templateParam', { ...REQUEST, templateParam: '{"code":{"a":"1"}}' });
  });

  it('a lone surrogate in a variable name or value is refused', async () => {
    await refused('templateParam', { ...REQUEST, templateParam: { code: 'x\uD800' } });
    await refused('templateParam', { ...REQUEST, templateParam: { '\uDC00': 'x' } });
  });
});

describe('hostile values in any field give InvalidParameter naming the field, never a TypeError', () => {
  const FIELDS = ['phoneNumbers', 'templateCode', 'templateParam', 'signName', 'outId'] as const;
  const HOSTILE: [string, () => unknown][] = [
    ['an object with a throwing toString', () => throwingToString],
    ['a null-prototype object', () => Object.create(null)],
    ['a revoked Proxy', revoked],
    ['a symbol', () => Symbol('x')],
    ['a bigint', () => 1n],
    ['a number', () => 42],
    ['a function', () => () => 'x'],
    ['null', () => null],
  ];
  for (const field of FIELDS) {
    // An empty variable map without prototype is a valid `templateParam` (`{}`), tested above.
    const cases = HOSTILE.filter(([name]) => field !== 'templateParam' || name !== 'a null-prototype object');
    it.each(cases)(`${field}: %s`, async (_name, make) => {
      await refused(field, { ...REQUEST, [field]: make() });
    });
  }

  it('a field whose getter throws', async () => {
    const request = Object.defineProperty({ ...REQUEST }, 'templateCode', {
      enumerable: true,
      get: () => {
        throw new Error('getter');
      },
    });
    const error = await refused('templateCode', request);
    expect(error.cause).toBeUndefined();
  });

  it('a variable whose getter throws, and a variable map behind a throwing Proxy', async () => {
    await refused('templateParam', { ...REQUEST, templateParam: throwingGetter() });
    const proxy = new Proxy(
      {},
      {
        getPrototypeOf: () => {
          throw new Error('trap');
        },
      },
    );
    await refused('templateParam', { ...REQUEST, templateParam: proxy });
  });

  it('a phone number array behind a Proxy whose traps throw', async () => {
    const trap = new Proxy(['13800138000'], {
      get: (target, key) => {
        if (key === '0') throw new Error('trap');
        return Reflect.get(target, key);
      },
    });
    await refused('phoneNumbers[0]', { ...REQUEST, phoneNumbers: trap });
    const length = new Proxy(['13800138000'], {
      get: (target, key) => {
        if (key === 'length') throw new Error('trap');
        return Reflect.get(target, key);
      },
    });
    await refused('phoneNumbers', { ...REQUEST, phoneNumbers: length });
    await refused('phoneNumbers', { ...REQUEST, phoneNumbers: revoked() });
  });

  it('a request behind a Proxy whose ownKeys trap throws, or a revoked one', async () => {
    const request = new Proxy(
      { ...REQUEST },
      {
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    await refused('request', request);
    await refused('request', revoked());
  });

  it.each([
    ['options', null],
    ['options', 'POST'],
    ['method', { method: throwingToString }],
    ['method', { method: 'post' }],
    ['signal', { signal: {} }],
    ['signal', { signal: throwingToString }],
    ['signal', { signal: revoked() }],
    ['signal', Object.defineProperty({}, 'signal', { get: () => expect.fail('getter') })],
  ])('send options: %s %#', async (field, options) => {
    await refused(field, REQUEST, options);
  });

  it('a request whose every field is well-formed still goes out with a real or polyfilled signal', async () => {
    const received = serveSms(server);
    const client = makeClient();
    await client.send(REQUEST, { signal: new AbortController().signal });
    const polyfill = { aborted: false, reason: undefined, addEventListener() {}, removeEventListener() {} };
    await client.send(REQUEST, { signal: polyfill as unknown as AbortSignal });
    await client.send(REQUEST, {});
    expect(received).toHaveLength(3);
  });
});
