/** Frees the previous contender's garbage so it is not billed to the next one (needs --expose-gc). */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * Runs every contender once per round, rotating the order each round so that
 * none always goes first (warm sockets, JIT, a noisy neighbour). Each
 * contender returns the figure it measured (e.g. milliseconds); the result
 * holds one figure per round for each contender.
 */
export async function interleave<K extends string>(
  rounds: number,
  contenders: Readonly<Record<K, () => Promise<number>>>,
): Promise<Record<K, number[]>> {
  const names = Object.keys(contenders) as K[];
  const figures = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length] as K);
    for (const name of order) {
      collectGarbage();
      figures[name].push(await contenders[name]());
    }
  }
  return figures;
}

/** Milliseconds one run of `work` takes. */
export async function time(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
