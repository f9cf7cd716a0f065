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
    if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new UsageError(`${flag} needs the optional package ${name}: npm install ${name}`);
    }
    throw error;
  }
}
