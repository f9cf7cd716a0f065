/** Median, extremes and the samples they come from. */
export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly samples: readonly number[];
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/** The value below which `p` (0..1) of the sorted samples fall (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank] as number;
}

export function summarize(samples: readonly number[], digits = 3): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return {
    median: round(median, digits),
    min: round(sorted[0] ?? Number.NaN, digits),
    max: round(sorted[sorted.length - 1] ?? Number.NaN, digits),
    samples: samples.map((value) => round(value, digits)),
  };
}

/** Per-round ratios `numerator[i] / denominator[i]`, summarized. */
export function ratio(numerator: readonly number[], denominator: readonly number[]): Summary {
  return summarize(numerator.map((value, index) => value / (denominator[index] as number)));
}
