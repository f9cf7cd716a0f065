import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EICAR_RECORD,
  SANDBOX_ACCOUNTS,
  SANDBOX_API_KEY,
  SANDBOX_DEFAULT_SIGN_NAME,
  SANDBOX_FAULT_HASHES,
  SANDBOX_HASH_RECORDS,
  SANDBOX_NOT_DETECTED_HASH,
  SANDBOX_SMS_FAULTS,
  SANDBOX_TEMPLATES,
  UNCHECKED_TEMPLATE_CODE,
} from '../../src/sandbox/index.js';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');
/** The README and every guide under docs/, the README first: what a user reads. */
const README = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]
  .map(read)
  .join('\n');
const DEFAULTS_SOURCE = read('src/doubles/defaults.ts');
const testingSection = read('docs/testing.md');

/** Every value a new user copies from the docs, from the constants themselves. */
const documentedValues = (): string[] => [
  SANDBOX_API_KEY,
  SANDBOX_DEFAULT_SIGN_NAME,
  SANDBOX_NOT_DETECTED_HASH,
  ...Object.values(SANDBOX_ACCOUNTS).flatMap((account) => [account.accessKeyId, account.accessKeySecret]),
  ...Object.entries(SANDBOX_TEMPLATES).flatMap(([code, content]) => (content === null ? [code] : [code, content])),
  ...Object.values(SANDBOX_FAULT_HASHES),
  EICAR_RECORD.md5,
  ...SANDBOX_HASH_RECORDS.map((record) => record.sha256),
];

describe("the README and guides (docs/testing.md) and the constants' TSDoc", () => {
  it('list the sandbox values the code really uses', () => {
    for (const value of documentedValues()) {
      expect(testingSection, `README lacks ${value}`).toContain(value);
      expect(DEFAULTS_SOURCE, `TSDoc lacks ${value}`).toContain(value);
    }
    // Computed values (recordFor digests) appear in the TSDoc too, not only in code.
    for (const record of SANDBOX_HASH_RECORDS) {
      for (const digest of [record.md5, record.sha1, record.sha256]) expect(DEFAULTS_SOURCE).toContain(digest);
    }
    for (const [kind, hash] of Object.entries(SANDBOX_FAULT_HASHES)) {
      expect(testingSection).toMatch(new RegExp(`\`${hash}\` \\| \`${kind}\``));
    }
  });

  it('lists the SMS fault numbers with their codes', () => {
    for (const [phone, code] of Object.entries(SANDBOX_SMS_FAULTS)) {
      expect(testingSection).toMatch(new RegExp(`\`${phone}\`[^|]*?\`${code.replaceAll('.', '\\.')}\``));
    }
  });

  it('uses only template codes the sandbox accepts, everywhere in the README', () => {
    const codes = [...README.matchAll(/templateCode: '([^']+)'/g)].map((match) => match[1]);
    expect(codes.length).toBeGreaterThan(2);
    for (const code of codes) {
      expect(code === UNCHECKED_TEMPLATE_CODE || Object.hasOwn(SANDBOX_TEMPLATES, code ?? '')).toBe(true);
    }
  });

  it("sends the SmsClient section's sample with the arguments the sandbox walkthrough proves", () => {
    /** The argument of the first `.send({ … })` in `text`, without comments and whitespace. */
    const sendArgument = (text: string): string =>
      (text.match(/\.send\(\{([\s\S]*?)\}\);/)?.[1] ?? '').replace(/\/\/.*$/gm, '').replace(/\s+/g, '');
    const smsGuide = read('docs/sms-client.md');
    const smsSection = smsGuide.slice(0, smsGuide.indexOf('### Sends are not idempotent'));
    const walkthrough = readFileSync(new URL('examples/readme-sandbox.ts', ROOT), 'utf8');
    expect(sendArgument(smsSection)).toContain("templateCode:'SMS_100000001'");
    expect(sendArgument(smsSection)).toBe(sendArgument(walkthrough));
  });

  it('shows the walkthroughs exactly as the example files that CI runs', () => {
    const blocks = [...README.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```/g)];
    expect(blocks.map((block) => block[1])).toEqual([
      'examples/quick-start/first-steps.ts',
      'examples/readme-msw.test.ts',
      'examples/readme-sandbox.ts',
    ]);
    for (const [, path, code] of blocks) {
      expect(code, `${path} differs from its README copy`).toBe(readFileSync(new URL(path ?? '', ROOT), 'utf8'));
    }
  });
});
