import { describe, expect, it } from 'vitest';
import { FileBatch, unpack } from '../../../src/cli/walk-thread/wire.js';

describe('the walking thread’s packed batches', () => {
  it('give back every path’s exact bytes and identity, in order, past the first buffer’s size', () => {
    const batch = new FileBatch();
    const sent: { path: Buffer; identity: { size: number; mtimeMs: number; ino: number; dev: number } | undefined }[] =
      [];
    // 2,000 names of up to 200 bytes: more than the 64 KiB the batch starts with.
    for (let i = 0; i < 2000; i += 1) {
      const path = Buffer.concat([
        Buffer.from(`/tree/d${i % 7}/`),
        Buffer.from([0xff, 0xfe, 0x0a, 0x5c]),
        Buffer.alloc(i % 180, 0x61),
      ]);
      const identity =
        i % 97 === 0 ? undefined : { size: i * 4099, mtimeMs: 1_764_000_000_123.25 + i, ino: 2 ** 52 + i, dev: 64_769 };
      batch.add(path, identity);
      sent.push({ path, identity });
    }
    expect(batch.count).toBe(2000);
    const files = batch.take();
    expect(batch.count).toBe(0);
    const got = [...unpack(files)];
    expect(got.length).toBe(sent.length);
    for (const [at, file] of got.entries()) {
      expect(file.path.equals(sent[at]?.path as Buffer)).toBe(true);
      expect(file.identity).toEqual(sent[at]?.identity);
    }
    // Taken, the batch starts again empty.
    batch.add(Buffer.from('x'), undefined);
    expect([...unpack(batch.take())].map((file) => file.path.toString())).toEqual(['x']);
  });
});
