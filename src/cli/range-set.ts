/**
 * A set of whole numbers stored as sorted, disjoint, inclusive ranges. Line
 * numbers settled by a run are mostly consecutive, so ten million of them
 * take a handful of ranges; gaps come only from lookups still to do.
 */
export class RangeSet {
  readonly #ranges: [number, number][] = [];
  #size = 0;

  /** How many numbers the set holds. */
  get size(): number {
    return this.#size;
  }

  /** The smallest number held (`undefined` when empty). */
  get min(): number | undefined {
    return this.#ranges[0]?.[0];
  }

  /** The largest number held (`undefined` when empty). */
  get max(): number | undefined {
    return this.#ranges.at(-1)?.[1];
  }

  /** Ranges as {@link RangeSet.toJSON} wrote them; `undefined` unless sorted, disjoint whole numbers. */
  static parse(value: unknown): RangeSet | undefined {
    if (!Array.isArray(value)) return undefined;
    const set = new RangeSet();
    let last = -2;
    for (const range of value) {
      if (!Array.isArray(range) || range.length !== 2) return undefined;
      const [start, end] = range as unknown[];
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return undefined;
      if ((start as number) <= last + 1 || (end as number) < (start as number)) return undefined;
      set.#ranges.push([start as number, end as number]);
      set.#size += (end as number) - (start as number) + 1;
      last = end as number;
    }
    return set;
  }

  /** The index of the first range that ends at or after `n - 1`. */
  #find(n: number): number {
    let lo = 0;
    let hi = this.#ranges.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#ranges[mid] as [number, number])[1] < n - 1) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(n: number): boolean {
    const range = this.#ranges[this.#find(n + 1)];
    return range !== undefined && range[0] <= n && n <= range[1];
  }

  add(n: number): void {
    const i = this.#find(n);
    const range = this.#ranges[i];
    if (range === undefined || range[0] > n + 1) {
      this.#ranges.splice(i, 0, [n, n]);
      this.#size += 1;
      return;
    }
    if (n >= range[0] && n <= range[1]) return;
    this.#size += 1;
    if (n === range[0] - 1) range[0] = n;
    else range[1] = n; // n === range[1] + 1
    const next = this.#ranges[i + 1];
    if (next !== undefined && next[0] === range[1] + 1) {
      range[1] = next[1];
      this.#ranges.splice(i + 1, 1);
    }
  }

  /** Removes `n` (a line asked again once its answer grew old), splitting its range if it was inside one. */
  delete(n: number): void {
    const i = this.#find(n + 1);
    const range = this.#ranges[i];
    if (range === undefined || n < range[0] || n > range[1]) return;
    this.#size -= 1;
    if (range[0] === range[1]) this.#ranges.splice(i, 1);
    else if (n === range[0]) range[0] = n + 1;
    else if (n === range[1]) range[1] = n - 1;
    else {
      this.#ranges.splice(i + 1, 0, [n + 1, range[1]]);
      range[1] = n - 1;
    }
  }

  toJSON(): [number, number][] {
    return this.#ranges.map(([start, end]) => [start, end]);
  }
}
