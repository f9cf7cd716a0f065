/**
 * A full inbox of control characters (each escaped as six bytes in JSON) made every list answer and
 * event-stream snapshot about 100 MiB, and each slow reader held one in memory. Answers are now cut
 * to MAX_ANSWER_BYTES (paging with `before`/`nextBefore`), and at most 16 list answers and streams
 * are open at once. The RSS bound is generous on purpose: the subject is growth, not a figure.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../../src/sandbox/inbox/pages.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';

const MESSAGES = 1000;
const CONTROL = '\u0001'.repeat(4096);
/** At most this many list answers and event streams at once (docs/sandbox-inbox.md#bounds). */
const MAX_OPEN_ANSWERS = 16;
const SLOW_READERS = 48;
/** Far above what the caps allow (16 answers of 1 MiB, held twice), far below one ~100 MiB answer per reader. */
const RSS_GROWTH_BOUND = 256 * 1024 * 1024;

interface ListAnswer {
  readonly messages: readonly { readonly id: number; readonly templateParam?: string }[];
  readonly nextBefore?: number;
}

/** Sends `count` unsigned SMS requests whose every field is 4,096 control characters (refused, but shown). */
async function fill(sandbox: Sandbox, count: number): Promise<void> {
  const body = new URLSearchParams({
    Action: 'SendSms',
    PhoneNumbers: CONTROL,
    SignName: CONTROL,
    TemplateCode: CONTROL,
    TemplateParam: CONTROL,
  }).toString();
  const one = async (): Promise<void> => {
    const response = await fetch(`${sandbox.smsUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    await response.arrayBuffer();
  };
  for (let sent = 0; sent < count; sent += 10) await Promise.all(Array.from({ length: 10 }, one));
}

/** Opens a raw connection, asks for `path`, and stops reading after the first chunk: its status line. */
function slowReader(url: string, path: string): Promise<{ socket: Socket; status: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
    });
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve({ socket, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0) });
    });
    socket.once('error', reject);
  });
}

describe('a full inbox of control characters', { timeout: 60_000 }, () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ recordLimit: 1 });
    await fill(sandbox, MESSAGES);
  }, 120_000);
  afterAll(() => sandbox?.close());

  it('answers /api/messages in pages under the cap, which together hold every message once, newest first', async () => {
    const ids: number[] = [];
    let before: number | undefined;
    let pages = 0;
    do {
      const response = await fetch(
        `${sandbox.inboxUrl}/api/messages${before === undefined ? '' : `?before=${before}`}`,
      );
      const text = await response.text();
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
      const page = JSON.parse(text) as ListAnswer;
      expect(page.messages.length).toBeGreaterThan(0);
      expect(page.messages[0]?.templateParam).toBe(CONTROL);
      ids.push(...page.messages.map((message) => message.id));
      before = page.nextBefore;
      pages += 1;
    } while (before !== undefined);
    expect(pages).toBeGreaterThan(1);
    expect(ids).toEqual(Array.from({ length: MESSAGES }, (_, i) => MESSAGES - i));
  });

  it('sends a snapshot under the cap on the event stream, saying how many it left out', async () => {
    const response = await fetch(`${sandbox.inboxUrl}/api/events`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    // Until the blank line that ends the snapshot event (JSON data holds no raw line break).
    const complete = (): boolean => {
      const start = text.indexOf('event: snapshot');
      return start !== -1 && text.indexOf('\n\n', start) !== -1;
    };
    while (!complete()) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
    const data = /event: snapshot\ndata: (.*)\n\n/.exec(text)?.[1] ?? '';
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    const snapshot = JSON.parse(data) as { messages: { id: number }[]; omitted: { messages: number } };
    expect(snapshot.messages.length).toBeGreaterThan(0);
    expect(snapshot.messages.at(-1)?.id).toBe(MESSAGES);
    expect(snapshot.messages.length + snapshot.omitted.messages).toBe(MESSAGES);
  });

  it('keeps memory bounded with many slow readers', async () => {
    const before = process.memoryUsage().rss;
    const readers = await Promise.all(
      Array.from({ length: SLOW_READERS }, (_, i) =>
        slowReader(sandbox.url, i % 4 === 0 ? '/_inbox/api/events' : '/_inbox/api/messages'),
      ),
    );
    const growth = process.memoryUsage().rss - before;
    for (const { socket } of readers) socket.destroy();
    // 503 for those past the cap while earlier answers are still held (how many depends on the kernel's buffers).
    for (const { status } of readers) expect([200, 503]).toContain(status);
    expect(growth).toBeLessThan(RSS_GROWTH_BOUND);
  });

  it('holds at most 16 list answers and streams open at once, and frees a place when one closes', async () => {
    const streams = await Promise.all(
      Array.from({ length: MAX_OPEN_ANSWERS }, () => slowReader(sandbox.url, '/_inbox/api/events')),
    );
    try {
      expect(streams.map(({ status }) => status)).toEqual(Array(MAX_OPEN_ANSWERS).fill(200));
      const busy = await fetch(`${sandbox.inboxUrl}/api/messages`);
      expect(busy.status).toBe(503);
      expect(await busy.json()).toMatchObject({ error: 'busy' });
      expect((await fetch(`${sandbox.inboxUrl}/api/events`)).status).toBe(503);
      // Single messages and long polls are not list answers: still served.
      expect((await fetch(`${sandbox.inboxUrl}/api/messages/latest`)).status).toBe(200);
      const closed = new Promise((resolve) => streams[0]?.socket.once('close', resolve));
      streams[0]?.socket.destroy();
      await closed;
      await expect.poll(async () => (await fetch(`${sandbox.inboxUrl}/api/lookups`)).status).toBe(200);
    } finally {
      for (const { socket } of streams) socket.destroy();
    }
  });
});
