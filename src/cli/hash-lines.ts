import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** One hash of the input, with where it came from. */
export interface HashLine {
  /** 1-based line number in the input (for arguments: their position). */
  readonly line: number;
  /** The hash as written (checked by the client, not here). */
  readonly hash: string;
  /** The file name after the hash, when the line is `sha256sum` output (`<hash>  <name>`). */
  readonly name?: string;
}

/**
 * Parses one line: blank lines and `#` comments give `undefined`; otherwise
 * the first word is the hash, and anything after it a file name, so the
 * output of `sha256sum`/`md5sum` (`<hash>  <name>`, `<hash> *<name>`) works
 * as input.
 */
export function parseHashLine(text: string, line: number): HashLine | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  const match = /^(\S+)(?:\s+\*?(.*))?$/s.exec(trimmed);
  const hash = match?.[1] ?? trimmed;
  const name = match?.[2];
  return name === undefined || name === '' ? { line, hash } : { line, hash, name };
}

/** Reads hash lines from a stream, one at a time (flat memory on any input size). */
export async function* readHashLines(
  input: NodeJS.ReadableStream,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<HashLine, void, undefined> {
  if (onBytes !== undefined) input.on('data', (chunk: Buffer | string) => onBytes(chunk.length));
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  for await (const text of lines) {
    number += 1;
    const parsed = parseHashLine(text, number);
    if (parsed !== undefined) yield parsed;
  }
}

export function openInput(path: string): NodeJS.ReadableStream {
  return createReadStream(path, { highWaterMark: 256 * 1024 });
}
