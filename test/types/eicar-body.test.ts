/**
 * `eicarTestFile()` goes where an upload test puts bytes: a `File`, a `Blob`, a `fetch` body. Typed
 * `Uint8Array` (that is `Uint8Array<ArrayBufferLike>`, which may view a `SharedArrayBuffer`), it was
 * refused by TypeScript 5.9's DOM types as a `BlobPart` and a `BodyInit`: the lines below then fail
 * `npm run typecheck` (this file is type-checked with the rest of `test/`). The runtime checks prove
 * the bytes arrive whole.
 */
import { describe, expect, it } from 'vitest';
import { hashBytes } from '../../src/hashing/hash-bytes.js';
import { EICAR_RECORD, eicarTestFile } from '../../src/sandbox/index.js';

describe('eicarTestFile() as a BlobPart and a fetch body', () => {
  it('builds a File and a Blob', async () => {
    const file = new File([eicarTestFile()], 'x');
    const blob = new Blob([eicarTestFile()], { type: 'application/octet-stream' });
    expect(file.size).toBe(68);
    expect(hashBytes(new Uint8Array(await file.arrayBuffer()))).toBe(EICAR_RECORD.sha256);
    expect(hashBytes(new Uint8Array(await blob.arrayBuffer()))).toBe(EICAR_RECORD.sha256);
  });

  it('is a fetch body', async () => {
    const init: RequestInit = { method: 'POST', body: eicarTestFile() };
    const request = new Request('http://127.0.0.1/upload', init);
    expect(hashBytes(new Uint8Array(await request.arrayBuffer()))).toBe(EICAR_RECORD.sha256);
    // `fetch` itself takes it as well (checked by the compiler; the request is not sent).
    const send = (url: string) => fetch(url, { method: 'POST', body: eicarTestFile() });
    expect(typeof send).toBe('function');
  });
});
