/**
 * An optional peer dependency that is not installed is a usage error naming
 * the package, whether it was loaded by `import()` (ERR_MODULE_NOT_FOUND) or,
 * as bullmq and ioredis now are, by `require` (MODULE_NOT_FOUND).
 */
import { describe, expect, it } from 'vitest';
import { loadOptional } from '../../src/cli/optional-package.js';
import { UsageError } from '../../src/cli/usage-error.js';

const missing = (code: string) => async (): Promise<never> => {
  throw Object.assign(new Error("Cannot find module 'bullmq'"), { code });
};

describe('loadOptional', () => {
  it.each(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND'])('%s: a usage error that names the package', async (code) => {
    const loading = loadOptional('bullmq', missing(code), '--queue');
    await expect(loading).rejects.toBeInstanceOf(UsageError);
    await expect(loading).rejects.toThrow('--queue needs the optional package bullmq: npm install bullmq');
  });

  it('any other failure is rethrown as it is', async () => {
    await expect(loadOptional('bullmq', missing('EACCES'), '--queue')).rejects.toMatchObject({ code: 'EACCES' });
  });

  it('resolves what the loader loads', async () => {
    await expect(loadOptional('bullmq', async () => 'module', '--queue')).resolves.toBe('module');
  });
});
