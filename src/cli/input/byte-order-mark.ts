/**
 * A byte order mark at the start of a hash list. Lists written on Windows
 * often start with the UTF-8 one (EF BB BF): it is a byte, not white space,
 * so left in place it makes line 1 an invalid hash. It is dropped. A UTF-16
 * list (FF FE or FE FF) is not decoded: it is refused as a whole, before
 * any line is read, with the way to convert it.
 */

const UTF8 = Buffer.of(0xef, 0xbb, 0xbf);
const UTF16 = [
  { mark: Buffer.of(0xff, 0xfe), name: 'UTF-16LE' },
  { mark: Buffer.of(0xfe, 0xff), name: 'UTF-16BE' },
] as const;

/** What a refused encoding is called, for the caller's message. */
export type RefusedEncoding = (typeof UTF16)[number]['name'];

/**
 * The bytes of `input` without a leading UTF-8 byte order mark (however the
 * first chunks are cut); throws `refuse(encoding)` at a UTF-16 one.
 */
export async function* withoutByteOrderMark(
  input: AsyncIterable<Buffer | string>,
  refuse: (encoding: RefusedEncoding) => Error,
): AsyncGenerator<Buffer, void, undefined> {
  let head: Buffer = Buffer.alloc(0);
  let decided = false;
  for await (const chunk of input) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (decided) {
      yield data;
      continue;
    }
    head = head.length === 0 ? data : Buffer.concat([head, data]);
    // Undecided while the start could still become a mark (a chunk of one or two bytes).
    if (head.length < UTF8.length && isStartOf(head)) continue;
    decided = true;
    const rest = strip(head, refuse);
    if (rest.length > 0) yield rest;
  }
  if (!decided && head.length > 0) {
    const rest = strip(head, refuse);
    if (rest.length > 0) yield rest;
  }
}

function isStartOf(head: Buffer): boolean {
  return [UTF8, ...UTF16.map((utf16) => utf16.mark)].some((mark) =>
    mark.subarray(0, head.length).equals(head.subarray(0, mark.length)),
  );
}

function strip(head: Buffer, refuse: (encoding: RefusedEncoding) => Error): Buffer {
  if (head.subarray(0, UTF8.length).equals(UTF8)) return head.subarray(UTF8.length);
  for (const { mark, name } of UTF16) if (head.subarray(0, mark.length).equals(mark)) throw refuse(name);
  return head;
}
