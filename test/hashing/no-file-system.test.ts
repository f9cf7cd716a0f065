import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashFile } from '../../src/hashing/hash-file.js';
import { hashFiles } from '../../src/hashing/hash-files.js';

// A Worker without nodejs_compat: no node:fs through getBuiltinModule, and no Buffer global.
function withoutNode(): void {
  vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
  vi.stubGlobal('Buffer', undefined);
}

describe('hashing a path where the runtime has no file system', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('hashFile rejects with the documented TypeError, not a ReferenceError', async () => {
    withoutNode();
    const outcome = hashFile('/etc/hostname').catch((error: unknown) => error);
    const error = await outcome;
    vi.unstubAllGlobals();
    expect(error).toBeInstanceOf(TypeError);
    expect(String(error)).toContain('hashFile: this runtime has no file system');
  });

  it('hashFiles rejects with the documented TypeError, not a ReferenceError', async () => {
    withoutNode();
    const error = await hashFiles(['/etc/hostname'])
      .next()
      .catch((caught: unknown) => caught);
    vi.unstubAllGlobals();
    expect(error).toBeInstanceOf(TypeError);
    expect(String(error)).toContain('hashFiles: this runtime has no file system');
  });
});
