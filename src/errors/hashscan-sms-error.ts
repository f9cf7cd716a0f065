import { brandErrorClass, isBranded } from './brand.js';

/** `util.inspect`'s hook (the symbol Node, Bun and Deno register), without `node:util`: a Worker has none. */
const INSPECT: unique symbol = Symbol.for('nodejs.util.inspect.custom') as never;

/** Fields every error of this package can carry. */
export interface HashScanSmsErrorInit {
  /** Human-readable message. Must already be free of secrets. */
  readonly message: string;
  /** What caused this error; pass a redacted error (see `redactError`). */
  readonly cause?: unknown;
  /** How many HTTP attempts were made before giving up (0 when none was sent). */
  readonly attempts?: number;
  /** The HTTP status of the last response, when there was one. */
  readonly status?: number;
}

/**
 * Base class of every error thrown by `hashscan-sms`.
 *
 * Each error has a stable machine-readable `code`. Messages, `cause` chains,
 * `toJSON()` and `util.inspect()` output never contain an API key, an access
 * key secret or a request signature: the package builds them from redacted
 * text only.
 *
 * @example
 * ```ts
 * try { await client.scan(hash) }
 * catch (error) {
 *   if (error instanceof HashScanSmsError) console.error(error.code, error.attempts)
 * }
 * ```
 *
 * `instanceof` works across the package's ESM and CommonJS builds loaded in one process (the
 * classes carry a `Symbol.for` brand), so an error thrown by a CommonJS dependency's copy is still
 * an `instanceof` the class your ESM code imported.
 */
export abstract class HashScanSmsError extends Error {
  static {
    brandErrorClass(HashScanSmsError, 'HashScanSmsError');
  }

  /**
   * `error instanceof HashScanSmsError` (and each subclass) holds for errors thrown by any copy of this
   * package loaded in the process: its ESM and CommonJS builds, or two installed versions.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of `instanceof`, a subclass included.
    return isBranded(this, value);
  }

  /** Stable machine-readable code; switch on this, not on `message`. */
  abstract readonly code: string;
  /** HTTP attempts made before this error was thrown (0 when no request was sent). */
  readonly attempts: number;
  /** HTTP status of the last response, when there was one. */
  readonly status: number | undefined;

  constructor(init: HashScanSmsErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.attempts = init.attempts ?? 0;
    this.status = init.status;
  }

  /** The concrete class name (`HashScanError`, `SmsError`, …), so stacks and logs say which error it is. */
  override get name(): string {
    return this.constructor.name;
  }

  /** A plain, secret-free summary, so `JSON.stringify(error)` is useful in logs. */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = {
      name: this.name,
      code: this.code,
      message: this.message,
      attempts: this.attempts,
    };
    for (const [key, value] of Object.entries(this)) {
      if (value !== undefined && !(key in json)) json[key] = value;
    }
    if (this.cause instanceof Error) {
      json.cause = { name: this.cause.name, message: this.cause.message };
    }
    return json;
  }

  /** Keeps `util.inspect`/`console.log` output to the same fields as `toJSON`, plus the stack. */
  [INSPECT](_depth?: number, _options?: object, inspect?: unknown): string {
    const { name: _name, message: _message, ...rest } = this.toJSON();
    return `${this.stack ?? `${this.name}: ${this.message}`} ${typeof inspect === 'function' ? inspect(rest) : JSON.stringify(rest)}`;
  }
}
