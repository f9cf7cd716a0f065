/** Frees the previous contender's garbage so it is not billed to the next one (needs --expose-gc). */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * Runs every contender once per round, rotating the order each round so that
 * none always goes first (warm sockets, JIT, a noisy neighbour). Each
 * contender returns the figure it measured (e.g. milliseconds, or a
 * {@link Measured}); the result holds one figure per round for each contender.
 */
export async function interleave<K extends string, T = number>(
  rounds: number,
  contenders: Readonly<Record<K, () => Promise<T>>>,
): Promise<Record<K, T[]>> {
  const names = Object.keys(contenders) as K[];
  const figures = Object.fromEntries(names.map((name) => [name, [] as T[]])) as Record<K, T[]>;
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

/** Wall time and the CPU this process spent (user + system) during one run. */
export interface Measured {
  readonly ms: number;
  /** Microseconds of CPU (user + system) of this process; the server runs in another. */
  readonly cpuUs: number;
}

/**
 * Wall time and CPU of one run of `work`. CPU is what a backend pays and, on a
 * shared machine, the steadier figure: a neighbour taking the core stretches
 * wall time but not the CPU this process uses.
 */
export async function measure(work: () => Promise<unknown>): Promise<Measured> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  return { ms, cpuUs: user + system };
}
