/**
 * `maxResponseBytes`: the most a response body may hold, counted on the
 * decoded body (after `fetch` undid any `Content-Encoding`), so a gzip bomb
 * or an endless body costs at most about this much memory. A
 * `Content-Length` announcing more is refused before any of the body is read.
 */

/** Default of `maxResponseBytes`: 1 MiB, hundreds of times the size of a real answer. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1_048_576;

/** A body over the limit (the connection it came on is cut). Internal: clients turn it into their own error. */
export class ResponseTooLargeError extends Error {
  readonly limit: number;
  readonly status: number;

  constructor(limit: number, status: number, announced: number | undefined) {
    super(
      announced === undefined
        ? `the response body exceeds maxResponseBytes (${limit} bytes)`
        : `the response announces ${announced} bytes, over maxResponseBytes (${limit} bytes)`,
    );
    this.name = 'ResponseTooLargeError';
    this.limit = limit;
    this.status = status;
  }
}

/**
 * Refuses a body whose `Content-Length` announces more than `limit`, before
 * any of it is read. (Within the limit the body is still counted as it
 * arrives: the header may lie, and it gives the encoded size, not the decoded one.)
 *
 * @throws {ResponseTooLargeError} when the announced length is over the limit.
 */
export function refuseAnnounced(contentLength: string | null | undefined, limit: number, status: number): void {
  if (contentLength === null || contentLength === undefined || !/^\d+$/.test(contentLength)) return;
  const announced = Number(contentLength);
  if (announced > limit) throw new ResponseTooLargeError(limit, status, announced);
}

/**
 * Reads a `fetch` body (already decoded by `fetch`) as text, at most `limit`
 * bytes; past it, cancels the stream (which cuts the connection) and throws.
 *
 * @throws {ResponseTooLargeError} once more than `limit` bytes arrived.
 */
export async function readWebBody(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  status: number,
): Promise<string> {
  if (body === null) return '';
  const reader = body.getReader();
  const chunks = new BodyChunks(limit);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return chunks.text();
      if (!chunks.add(value)) throw new ResponseTooLargeError(limit, status, undefined);
    }
  } catch (error) {
    reader.cancel(error).catch(() => undefined);
    throw error;
  }
}

/** The part of a Node `Readable` (undici's `BodyReadable`) that {@link readNodeBody} listens to. */
interface NodeStream {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  removeListener(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  destroy(): unknown;
}

const isNodeStream = (body: object): body is NodeStream =>
  typeof (body as Partial<NodeStream>).on === 'function' &&
  typeof (body as Partial<NodeStream>).removeListener === 'function' &&
  typeof (body as Partial<NodeStream>).destroy === 'function';

/** One decoder for every whole body: a decode without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder();

/**
 * A body's chunks kept as they come, counted against a limit, and decoded
 * once at the end, as `Response.text()` decodes (a leading BOM dropped, bad
 * sequences replaced), by one shared decoder: no decoder per response, and
 * no streaming decode (which needs a converter of its own). The usual
 * one-chunk body costs no array.
 */
export class BodyChunks {
  readonly #limit: number;
  #first: Uint8Array | undefined;
  #more: Uint8Array[] | undefined;
  #bytes = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Keeps a chunk; `false` (the chunk dropped) once more than the limit has arrived. */
  add(chunk: Uint8Array): boolean {
    this.#bytes += chunk.byteLength;
    if (this.#bytes > this.#limit) return false;
    if (this.#first === undefined) {
      this.#first = chunk;
    } else {
      this.#more ??= [this.#first];
      this.#more.push(chunk);
    }
    return true;
  }

  text(): string {
    if (this.#more !== undefined) {
      const whole = new Uint8Array(this.#bytes);
      let at = 0;
      for (const chunk of this.#more) {
        whole.set(chunk, at);
        at += chunk.byteLength;
      }
      return UTF8.decode(whole);
    }
    return this.#first === undefined ? '' : UTF8.decode(this.#first);
  }
}

/**
 * Reads a Node stream body (undici's `request()`) as text, at most `limit`
 * bytes; past it, destroys the stream (which cuts the connection) and throws.
 * A Node stream is read through its `data` and `end` events, which cost a
 * fraction of what its async iterator does per body ({@link BodyChunks}).
 * Any other async iterable (a hand-written dispatcher's) is read with `for await`.
 *
 * @throws {ResponseTooLargeError} once more than `limit` bytes arrived.
 */
export function readNodeBody(body: AsyncIterable<Uint8Array>, limit: number, status: number): Promise<string> {
  if (!isNodeStream(body)) return readIterable(body, limit, status);
  return new Promise((resolve, reject) => {
    const chunks = new BodyChunks(limit);
    const onData = (chunk: Uint8Array): void => {
      if (chunks.add(chunk)) return;
      body.removeListener('data', onData);
      // The error listener stays: destroying the stream may still emit one, which must not go unhandled.
      body.destroy();
      reject(new ResponseTooLargeError(limit, status, undefined));
    };
    body.on('data', onData);
    body.on('error', reject);
    body.on('end', () => resolve(chunks.text()));
  });
}

async function readIterable(body: AsyncIterable<Uint8Array>, limit: number, status: number): Promise<string> {
  const chunks = new BodyChunks(limit);
  for await (const chunk of body) {
    if (!chunks.add(chunk)) throw new ResponseTooLargeError(limit, status, undefined);
  }
  return chunks.text();
}
