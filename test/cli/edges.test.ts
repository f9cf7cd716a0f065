/** Smaller edges of the command line: one rule for phone numbers, one field order, singular counts. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EICAR_RECORD } from '../../src/sandbox/index.js';
import { collect, parseCsv, parseNdjson, runCli, startCli } from './run-cli.js';

const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
const CLEAN = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SEND = [
  'sms',
  'send',
  '--sandbox',
  '--template',
  'SMS_100000001',
  '--param',
  '{"code":"123456"}',
  '-f',
  'ndjson',
];

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-edges-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('command line edges', { timeout: 30_000 }, () => {
  it('--phone takes one number, as the library does: a comma is refused, repeating the flag sends to several', async () => {
    const listed = await runCli([...SEND, '--phone', '13800000000,13900000000']);
    expect(listed.code).toBe(64);
    expect(listed.stdout).toBe('');
    expect(listed.stderr).toContain('--phone takes one number');
    expect(listed.stderr).not.toContain('13900000000');
    const repeated = await runCli([...SEND, '--phone', '13800000000', '--phone', '13900000000']);
    expect(repeated.code).toBe(0);
    expect(parseNdjson(repeated.stdout)[0]).toMatchObject({ status: 'sent' });
  });

  it('NDJSON gives the fields of a row in the order of the CSV header, lookup and scan', async () => {
    // A malicious hash, a clean one with a name that is not UTF-8, an invalid line.
    const input = Buffer.concat([
      Buffer.from(`${EICAR_RECORD.sha256}\n${CLEAN}  name-`),
      Buffer.of(0xff),
      Buffer.from('.txt\nnot-a-hash\n'),
    ]);
    // A folder with a file whose name is not UTF-8, and EICAR.
    const files = join(dir, 'tree');
    await mkdir(files);
    await writeFile(Buffer.concat([Buffer.from(`${files}/x`), Buffer.of(0xff)]), 'x');
    await writeFile(join(files, 'eicar.txt'), EICAR);
    for (const args of [['lookup'], ['scan', files]]) {
      const [ndjson, csv] = await Promise.all(
        ['ndjson', 'csv'].map((format) => collect(startCli([...args, '--sandbox', '-f', format]), input)),
      );
      const header = parseCsv(csv?.stdout ?? '')[0] ?? [];
      const rows = parseNdjson(ndjson?.stdout ?? '');
      expect(rows.length).toBeGreaterThanOrEqual(2);
      for (const row of rows) {
        const keys = Object.keys(row);
        expect(keys, `${args[0]}: ${JSON.stringify(row)}`).toEqual(header.filter((key) => keys.includes(key)));
      }
    }
  });

  it('says "1 line", not "1 lines"', async () => {
    const state = join(dir, 'one.state');
    const first = await runCli(['lookup', '--sandbox', '--resume', state], { input: `${CLEAN}\n` });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('1 hash: 0 block');
    const shorter = await runCli(['lookup', '--sandbox', '--resume', state], { input: '' });
    expect(shorter.code).toBe(64);
    expect(shorter.stderr).toContain('it covers 1 line,');
  });
});
