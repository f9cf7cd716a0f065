import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashBytes } from '../../src/hashing/hash-bytes.js';
import { EICAR_RECORD, eicarTestFile } from '../../src/sandbox/index.js';
import * as testing from '../../src/testing/index.js';

describe('the EICAR test file, exported beside its digests', () => {
  it('has the 68 bytes whose digests are EICAR_RECORD', () => {
    const bytes = eicarTestFile();
    expect(bytes).toHaveLength(68);
    expect(hashBytes(bytes, ['md5', 'sha1', 'sha256'])).toEqual({
      md5: EICAR_RECORD.md5,
      sha1: EICAR_RECORD.sha1,
      sha256: EICAR_RECORD.sha256,
    });
    expect(testing.eicarTestFile).toBe(eicarTestFile);
  });

  it('gives a fresh copy each call (a caller may overwrite its own)', () => {
    const first = eicarTestFile();
    first.fill(0);
    expect(hashBytes(eicarTestFile())).toBe(EICAR_RECORD.sha256);
  });

  it('never appears whole in the package sources (a scanner would flag the package)', () => {
    const whole = new TextDecoder().decode(eicarTestFile());
    const root = new URL('../../src/', import.meta.url);
    const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    for (const entry of files) {
      expect(readFileSync(`${entry.parentPath}/${entry.name}`, 'utf8').includes(whole), entry.name).toBe(false);
    }
  });
});
