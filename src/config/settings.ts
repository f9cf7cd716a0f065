/**
 * Settings read from an option or, when it is absent, from the environment.
 * @module
 */
import { ConfigurationError } from '../errors/configuration-error.js';

/** An option, else its environment variable; missing or empty is a configuration error. */
export function requiredSetting(value: string | undefined, option: string, envName: string): string {
  if (value !== undefined && typeof value !== 'string') {
    throw new ConfigurationError(option, 'must be a string');
  }
  // A Worker has no `process` (its settings come from `env`, passed as options).
  const resolved =
    value ?? (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[envName];
  if (resolved === undefined || resolved === '') {
    throw new ConfigurationError(option, `is required: pass \`${option}\` or set the ${envName} environment variable`);
  }
  return resolved;
}
