import { BodyChunks, ResponseTooLargeError, refuseAnnounced } from './body-limit.js';
import type { DispatchOptions } from './dispatcher.js';
import { DispatchFailure, type WriteTrackingDispatcher } from './request-written.js';
import type { IncomingResponse, ResponseHeaders } from './wire.js';

/** What undici gives a handler to cut its request short: the legacy `abort` function, or the newer controller. */
type Abort = (reason: Error) => void;
interface RequestController {
  abort(reason: Error): void;
}

/** Raw header lines as undici's legacy handlers get them: name, value, name, value… */
type RawHeaderList = readonly (Buffer | string | readonly (Buffer | string)[])[];
type HeaderRecord = Readonly<Record<string, string | string[] | undefined>>;

/**
 * One request through `dispatcher.dispatch()` with a handler of its own:
 * no `Readable` body stream, request handler or abort signal per request,
 * which `dispatcher.request()` builds, and most of what the dispatcher path
 * spends beyond the socket. The handler speaks both handler interfaces:
 * the one undici 6 calls (`onConnect`, `onHeaders`, `onData`, `onComplete`,
 * `onError`) and the one undici 8 calls (`onRequestStart`, `onResponseStart`,
 * `onResponseData`, `onResponseEnd`, `onResponseError`); undici 7 takes either.
 *
 * The body is kept as it comes, at most `maxBytes`, and decoded once at the
 * end ({@link BodyChunks}). Failures are worded as `fetch` words
 * them: `fetch failed` before the response began, `terminated` after.
 */
export class DispatchExchange {
  readonly response: Promise<IncomingResponse>;
  #resolve!: (response: IncomingResponse) => void;
  #reject!: (error: Error) => void;
  readonly #tracked: WriteTrackingDispatcher;
  readonly #options: DispatchOptions;
  readonly #maxBytes: number;
  readonly #attempt: number;
  /** How to cut the request: set once undici hands the request to a connection. */
  #abort: Abort | undefined;
  /** Why the request was cut before undici handed it over: it is cut as soon as it is. */
  #cutReason: Error | undefined;
  #settled = false;
  #status = 0;
  #headers: HeaderRecord | undefined;
  readonly #body: BodyChunks;

  constructor(tracked: WriteTrackingDispatcher, options: DispatchOptions, maxBytes: number, attempt: number) {
    this.#tracked = tracked;
    this.#options = options;
    this.#maxBytes = maxBytes;
    this.#attempt = attempt;
    this.#body = new BodyChunks(maxBytes);
    this.response = new Promise<IncomingResponse>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** Hands the request to the dispatcher; a dispatcher that throws fails the request as `fetch failed`. */
  start(dispatch: (options: DispatchOptions, handler: object) => unknown): this {
    try {
      dispatch(this.#options, this);
    } catch (error) {
      this.#fail(error);
    }
    return this;
  }

  /** Cuts the request short: the response rejects at once, the connection (if any) is cut. */
  abort(reason: unknown): void {
    if (this.#settled) return;
    const error = reason instanceof Error ? reason : new Error('aborted');
    // With the fact of whether it reached a socket: an abort while it was queued sent nothing.
    const message = this.#headers === undefined ? 'fetch failed' : 'terminated';
    this.#settle(new DispatchFailure(message, new Error('aborted'), this.#tracked.written(this.#options)));
    this.#cutReason ??= error;
    this.#abort?.(error);
  }

  // The handler interface of undici 6 (and 7).

  onConnect(abort: Abort): void {
    this.#connected(abort);
  }

  onHeaders(status: number, rawHeaders: RawHeaderList): boolean {
    // 1xx answers are interim: the final one follows.
    if (status >= 200) this.#started(status, rawHeaders);
    return true;
  }

  onData(chunk: Uint8Array): boolean {
    this.#data(chunk);
    return true;
  }

  onComplete(): void {
    this.#end();
  }

  onError(error: unknown): void {
    this.#fail(error);
  }

  // The handler interface of undici 8 (and 7).

  onRequestStart(controller: RequestController): void {
    this.#connected((reason) => controller.abort(reason));
  }

  onResponseStart(_controller: unknown, status: number, headers: HeaderRecord | RawHeaderList): void {
    if (status >= 200) this.#started(status, headers);
  }

  onResponseData(_controller: unknown, chunk: Uint8Array): void {
    this.#data(chunk);
  }

  onResponseEnd(): void {
    this.#end();
  }

  onResponseError(_controller: unknown, error: unknown): void {
    this.#fail(error);
  }

  #connected(abort: Abort): void {
    this.#abort = abort;
    // Cut while it waited for a connection: it is never written.
    if (this.#cutReason !== undefined) abort(this.#cutReason);
  }

  #started(status: number, headers: HeaderRecord | RawHeaderList): void {
    if (this.#settled) return;
    this.#status = status;
    const record = Array.isArray(headers) ? headerRecord(headers as RawHeaderList) : (headers as HeaderRecord);
    this.#headers = record;
    const length = record['content-length'];
    try {
      refuseAnnounced(typeof length === 'string' ? length : undefined, this.#maxBytes, status);
    } catch (error) {
      this.#tooLarge(error as ResponseTooLargeError);
    }
  }

  #data(chunk: Uint8Array): void {
    if (this.#settled || this.#body.add(chunk)) return;
    this.#tooLarge(new ResponseTooLargeError(this.#maxBytes, this.#status, undefined));
  }

  #end(): void {
    if (this.#settled) return;
    // Only a broken dispatcher ends a response it never started; it must not leave the attempt hanging.
    if (this.#headers === undefined) {
      this.#fail(new Error('the response ended before its status line'));
      return;
    }
    this.#settled = true;
    this.#resolve({
      status: this.#status,
      headers: new RecordHeaders(this.#headers),
      text: this.#body.text(),
      attempt: this.#attempt,
    });
  }

  /** Over the limit: the rest is never read, the connection is cut. */
  #tooLarge(error: ResponseTooLargeError): void {
    // Settled first: undici reports the cut back through `onError` at once.
    this.#settle(error);
    this.#cutReason ??= error;
    this.#abort?.(error);
  }

  #fail(cause: unknown): void {
    const message = this.#headers === undefined ? 'fetch failed' : 'terminated';
    this.#settle(new DispatchFailure(message, cause, this.#tracked.written(this.#options)));
  }

  #settle(error: Error): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#reject(error);
  }
}

/** Header lines as a record of lower-case names, repeated ones as arrays (undici's `parseHeaders`). */
function headerRecord(raw: RawHeaderList): HeaderRecord {
  const record: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = textOf(raw[i] as Buffer | string).toLowerCase();
    const rawValue = raw[i + 1] as Buffer | string | readonly (Buffer | string)[];
    const value = Array.isArray(rawValue) ? rawValue.map(textOf) : textOf(rawValue as Buffer | string);
    const seen = record[name];
    if (seen === undefined) record[name] = value;
    else record[name] = ([] as string[]).concat(seen, value);
  }
  return record;
}

const textOf = (value: Buffer | string): string => (typeof value === 'string' ? value : value.toString('utf8'));

/** `Headers.get()` over a header record (lower-case names, repeated ones as arrays). */
export class RecordHeaders implements ResponseHeaders {
  readonly #raw: HeaderRecord;

  constructor(raw: HeaderRecord) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}
