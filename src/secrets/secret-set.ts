/**
 * The secrets a redactor hides, growing as credentials rotate: a provider's
 * new key joins the set before the first request that carries it, and the
 * oldest ones are forgotten beyond a bound, so a long-running process that
 * rotates keys hourly does not grow its masking pattern without end.
 * @module
 */

/** How many secrets a {@link SecretSet} keeps by default. */
const DEFAULT_MAX_SECRETS = 32;

/** An ordered, bounded set of secrets with a version that changes whenever it does. */
export class SecretSet {
  readonly #secrets: string[] = [];
  readonly #max: number;
  #version = 0;

  constructor(initial: readonly string[] = [], max = DEFAULT_MAX_SECRETS) {
    this.#max = max;
    for (const secret of initial) this.add(secret);
  }

  /** Bumped on every change; redactors rebuild their pattern when it moves. */
  get version(): number {
    return this.#version;
  }

  /** The secrets, oldest first. */
  get values(): readonly string[] {
    return this.#secrets;
  }

  /** Adds a secret (again: moves it to the newest place); drops the oldest beyond the bound. */
  add(secret: string): void {
    if (typeof secret !== 'string' || secret === '') return;
    const at = this.#secrets.indexOf(secret);
    if (at === this.#secrets.length - 1 && at >= 0) return;
    if (at >= 0) this.#secrets.splice(at, 1);
    this.#secrets.push(secret);
    if (this.#secrets.length > this.#max) this.#secrets.shift();
    this.#version += 1;
  }
}

/**
 * A function rebuilt from the set's values whenever the set changes, and
 * otherwise reused: one integer comparison per call on the usual path.
 */
export function followSecrets<F>(set: SecretSet, build: (secrets: readonly string[]) => F): () => F {
  let built = build(set.values);
  let version = set.version;
  return () => {
    if (version !== set.version) {
      built = build(set.values);
      version = set.version;
    }
    return built;
  };
}
