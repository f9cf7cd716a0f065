import { UsageError } from './usage-error.js';

const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** Ten years: beyond it a duration is a typo. */
const MAX_MS = 3650 * 86_400_000;

/** A positive duration flag (`1s`, `90s`, `15m`, `12h`, `7d`) in ms, or a usage error naming the flag. */
export function flagDuration(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const match = /^([1-9]\d{0,9})([smhd])$/.exec(value);
  const ms = match === null ? Number.NaN : Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  if (!(ms <= MAX_MS)) {
    throw new UsageError(
      `--${flag} must be a positive duration with a unit, s, m, h or d (1s, 90s, 15m, 12h, 7d), at most 3650d; got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}
