import { UsageError } from './usage-error.js';

/**
 * Loads an optional peer dependency (bullmq, ioredis, @aws-sdk/client-s3) when the flag or argument
 * that needs it runs; the core package adds no required dependency. Absent, a usage error (exit 64)
 * names the package to install.
 */
export async function loadOptional<T>(name: string, load: () => Promise<T>, flag: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // `import()` says ERR_MODULE_NOT_FOUND, `require` MODULE_NOT_FOUND.
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new UsageError(`${flag} needs the optional package ${name}: npm install ${name}`);
    }
    throw error;
  }
}
