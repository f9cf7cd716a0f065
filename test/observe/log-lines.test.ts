import { afterEach, describe, expect, it, vi } from 'vitest';
import { SANDBOX_ACCOUNTS } from '../../src/doubles/defaults.js';
import { HashScanClient } from '../../src/hashscan/hashscan-client.js';
import { type LogFields, type Logger, objectFirstLogger } from '../../src/observe/logger.js';
import { SmsClient } from '../../src/sms/sms-client.js';
import { createHashScanHandlers, createSmsHandlers } from '../../src/testing/msw-handlers.js';
import { json, NOT_DETECTED, SHA256, serveLookup } from '../helpers/hash-lookup.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();
const SEND = { phoneNumbers: '13800000000', templateCode: 'SMS_100000001', templateParam: { code: '1' } };

afterEach(() => {
  vi.restoreAllMocks();
});

/** A logger that keeps every call's arguments. */
function capture(structured: boolean): { logger: Logger; calls: { level: string; args: unknown[] }[] } {
  const calls: { level: string; args: unknown[] }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]): void => {
      calls.push({ level, args });
    };
  return { calls, logger: { structured, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('log lines', () => {
  it('gives console exactly one single-line string per attempt and per retry', async () => {
    serveLookup(server, (_hash, call) => (call === 1 ? json({}, 503) : json(NOT_DETECTED)));
    const spies = (['debug', 'info', 'warn', 'error', 'log'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(() => {}),
    );
    const client = new HashScanClient({
      apiKey: 'k-123456',
      baseUrl: 'https://hashscan.test',
      retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 },
      logger: console,
    });
    await client.scan(SHA256);
    const calls = spies.flatMap((spy) => spy.mock.calls);
    expect(calls).toHaveLength(3);
    for (const args of calls) {
      expect(args).toHaveLength(1);
      expect(typeof args[0]).toBe('string');
      expect(args[0]).not.toContain('\n');
      expect(args[0]).not.toContain('k-123456');
    }
    expect(spies.map((spy) => spy.mock.calls.length)).toEqual([1, 1, 1, 0, 0]);
    expect(spies[2]?.mock.calls[0]?.[0]).toMatch(
      new RegExp(
        `^hashscan: GET https://hashscan\\.test/hash_scan\\?api_key=\\*\\*\\*&hash=${SHA256} -> 503 in \\d+ ms \\(attempt 1\\)$`,
      ),
    );
  });

  it('names the SMS service Code in the line and in the fields', async () => {
    server.use(...createSmsHandlers({ baseUrl: 'https://sms.test' }));
    const { logger, calls } = capture(true);
    const sms = new SmsClient({
      baseUrl: 'https://sms.test',
      accessKeyId: 'sandbox-access-key-id',
      accessKeySecret: 'not-the-secret',
      logger,
    });
    await expect(sms.send(SEND)).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
    expect(calls).toHaveLength(1);
    const [message, fields] = (calls[0]?.args ?? []) as [string, LogFields];
    expect(calls[0]?.level).toBe('warn');
    expect(message).toMatch(/^sms: POST https:\/\/sms\.test\/ -> 400 SignatureDoesNotMatch in \d+ ms \(attempt 1\)$/);
    expect(fields).toMatchObject({ client: 'sms', status: 400, serviceCode: 'SignatureDoesNotMatch', attempt: 1 });
  });

  it("gives console single lines for the SMS client's clock correction and re-signing too", async () => {
    // A double whose clock is an hour ahead refuses the timestamp; the client corrects its clock and re-signs once.
    server.use(...createSmsHandlers({ baseUrl: 'https://sms.test', clockOffsetMs: 3_600_000 }));
    const spies = (['debug', 'info', 'warn', 'error', 'log'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(() => {}),
    );
    const sms = new SmsClient({ baseUrl: 'https://sms.test', ...SANDBOX_ACCOUNTS.member, logger: console });
    await expect(sms.send(SEND)).resolves.toMatchObject({ code: 'OK' });
    const calls = spies.flatMap((spy) => spy.mock.calls);
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.map((args) => args.length)).toEqual(calls.map(() => 1));
    expect(calls.map((args) => String(args[0])).join('\n')).toMatch(/re-signing it once/);
    expect(calls.every((args) => !String(args[0]).includes('\n'))).toBe(true);
  });

  it('keeps an odd service Code (a line break, a huge body) out of the line', async () => {
    const bodies = [JSON.stringify({ Code: 'Bad\nInjected line', Message: '', RequestId: '' }), 'x'.repeat(10_000)];
    for (const body of bodies) {
      const { logger, calls } = capture(false);
      const fetch = async () => new Response(body, { status: 400, headers: { 'content-type': 'application/json' } });
      const sms = new SmsClient({
        baseUrl: 'https://sms.test',
        accessKeyId: 'id',
        accessKeySecret: 's',
        logger,
        fetch,
      });
      await expect(sms.send(SEND)).rejects.toBeDefined();
      expect(calls.map((call) => call.args)).toEqual([[expect.stringMatching(/-> 400 in \d+ ms \(attempt 1\)$/)]]);
    }
  });

  it('hints at apiKey when the lookup service answers 401, in the line and in the error', async () => {
    server.use(...createHashScanHandlers({ baseUrl: 'https://hashscan.test', apiKey: 'the-right-key' }));
    const { logger, calls } = capture(true);
    const client = new HashScanClient({ apiKey: 'a-wrong-key', baseUrl: 'https://hashscan.test', logger });
    const error = await client.scan(SHA256).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 401, message: expect.stringContaining('check apiKey') });
    const [message, fields] = (calls[0]?.args ?? []) as [string, LogFields];
    expect(message).toMatch(/-> 401 in \d+ ms \(attempt 1\): check apiKey/);
    expect(fields.hint).toContain('apiKey');
    expect(JSON.stringify(calls)).not.toContain('a-wrong-key');
  });

  it('objectFirstLogger hands pino-style loggers (fields, message)', async () => {
    serveLookup(server, () => json(NOT_DETECTED));
    const records: [object, string][] = [];
    const pinoLike = {
      debug: (fields: object, message: string) => records.push([fields, message]),
      info: (fields: object, message: string) => records.push([fields, message]),
      warn: (fields: object, message: string) => records.push([fields, message]),
      error: (fields: object, message: string) => records.push([fields, message]),
    };
    const client = new HashScanClient({
      apiKey: 'k-123456',
      baseUrl: 'https://hashscan.test',
      logger: objectFirstLogger(pinoLike),
    });
    await client.scan(SHA256);
    expect(records).toEqual([
      [
        expect.objectContaining({ client: 'hashscan', method: 'GET', status: 200, attempt: 1 }),
        expect.stringMatching(/^hashscan: GET .*api_key=\*\*\*.* -> 200 in \d+ ms \(attempt 1\)$/),
      ],
    ]);
    const adapted = objectFirstLogger(pinoLike);
    adapted.error('plain');
    expect(records.at(-1)).toEqual([{}, 'plain']);
  });
});
