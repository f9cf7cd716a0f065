/**
 * The inbox over HTTP, under `/_inbox`: the page and its two static
 * resources, the JSON API and the event stream. Every answer is
 * `no-store`, `nosniff` and under a Content-Security-Policy.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { canonicalPhone, DEFAULT_PHONE_REGION } from '../../phone/canonical-phone.js';
import type { InboxAccess } from './access.js';
import type { InboxMessage } from './entries.js';
import { PAGE_CSP, PAGE_HTML, PAGE_STYLE } from './page.js';
import { PAGE_SCRIPT } from './page-script.js';
import { type JsonPage, jsonArray, MAX_ANSWER_BYTES, newestPage } from './pages.js';
import type { InboxChange, InboxStore } from './store.js';

/** The inbox's path; the specs use no path starting with `/_`. */
export const INBOX_PATH = '/_inbox';

/** Long polls open at once, at most (more answer 503): each holds one message at most. */
const MAX_WAITS = 64;
/**
 * List answers not yet taken by their reader, and event streams, open at
 * once, at most (more answer 503): each may hold a full answer in memory
 * while its reader is slow.
 */
const MAX_OPEN_ANSWERS = 16;
/** Time-out of `messages/next` by default and at most. */
const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 300_000;
/** A stream whose reader is this far behind its snapshot is cut (it reconnects and gets a fresh one). */
const MAX_STREAM_BACKLOG = 2 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;
/** Room kept in an answer for what surrounds the entries (`info`, field names, the cursor). */
const ENVELOPE_BYTES = 512;

const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
} as const;
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Whether a path belongs to the inbox. */
export function isInboxPath(pathname: string): boolean {
  return pathname === INBOX_PATH || pathname.startsWith(`${INBOX_PATH}/`);
}

function reply(res: ServerResponse, status: number, type: string, body: string, csp = DATA_CSP): void {
  if (res.destroyed) return;
  res.writeHead(status, { ...COMMON_HEADERS, 'content-security-policy': csp, 'content-type': type }).end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  reply(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

const problem = (res: ServerResponse, status: number, error: string, message: string): void =>
  json(res, status, { error, message });

/**
 * What a number is matched by: its digits (a leading `+` aside), and its E.164 form read as a
 * mainland number when it has no calling code. `SmsClient` sends a mainland number as its 11 digits
 * and any other as calling code and number, so `+8613800138000` finds `13800138000` and
 * `+85261234567` finds `85261234567`.
 */
const matchKeys = (phone: string): string[] => {
  const digits = phone.trim().replace(/^\+/, '');
  const parsed = canonicalPhone(phone.trim(), DEFAULT_PHONE_REGION);
  return parsed.ok ? [digits, parsed.phone.e164] : [digits];
};

/** A recipient is `phone`, in any of its spellings. */
const sentTo = (message: InboxMessage, phone: string | null): boolean => {
  if (phone === null) return true;
  const wanted = new Set(matchKeys(phone));
  return message.phoneNumbers.some((number) => matchKeys(number).some((key) => wanted.has(key)));
};

/** A non-negative whole number from the query, or `fallback`; `undefined` when malformed. */
function wholeNumber(value: string | null, fallback: number): number | undefined {
  if (value === null) return fallback;
  return /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** Serves `/_inbox` and below for one sandbox. */
export function createInboxHandler(
  store: InboxStore,
  access: InboxAccess,
  address: string,
): (req: IncomingMessage, res: ServerResponse, url: URL) => void {
  let waiting = 0;
  let open = 0;
  /** Counts `res` among the open answers until it is flushed or closed; `false` (and a 503 sent) when full. */
  const holdOpen = (res: ServerResponse): boolean => {
    if (open >= MAX_OPEN_ANSWERS) {
      problem(res, 503, 'busy', `at most ${MAX_OPEN_ANSWERS} list answers and event streams at once`);
      return false;
    }
    open += 1;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      open -= 1;
    };
    res.once('finish', release).once('close', release);
    return true;
  };
  const info = { loopback: access.loopback, address, limit: access.limit };

  /** `{loopback, address, limit, <name>: […], nextBefore?}`, built from the page's serialized entries. */
  const listAnswer = (name: 'messages' | 'lookups', page: JsonPage): string => {
    const more = page.nextBefore === undefined ? '' : `,"nextBefore":${page.nextBefore}`;
    return `${JSON.stringify(info).slice(0, -1)},"${name}":${jsonArray(page.items)}${more}}`;
  };

  /** The stream's first event: the newest of each list that fit half an answer each, oldest first, and how many did not. */
  const snapshotEvent = (): string => {
    const all = () => true;
    const messages = newestPage(store.messages(), MAX_ANSWER_BYTES / 2 - ENVELOPE_BYTES, Number.MAX_SAFE_INTEGER, all);
    const lookups = newestPage(store.lookups(), MAX_ANSWER_BYTES / 2 - ENVELOPE_BYTES, Number.MAX_SAFE_INTEGER, all);
    const omitted = JSON.stringify({ messages: messages.omitted, lookups: lookups.omitted });
    const data = `{"info":${JSON.stringify(info)},"messages":${jsonArray([...messages.items].reverse())},"lookups":${jsonArray([...lookups.items].reverse())},"omitted":${omitted}}`;
    return `event: snapshot\ndata: ${data}\n\n`;
  };

  /** Holds `res` open until a matching message arrives, the time-out passes or the client leaves. */
  const waitForNext = (res: ServerResponse, url: URL): void => {
    const phone = url.searchParams.get('phone');
    const timeout = wholeNumber(url.searchParams.get('timeout'), DEFAULT_WAIT_MS);
    const after = wholeNumber(url.searchParams.get('after'), store.lastMessageId());
    if (timeout === undefined || timeout > MAX_WAIT_MS || after === undefined) {
      problem(res, 400, 'bad_request', `timeout is 0 to ${MAX_WAIT_MS} ms, after a message id`);
      return;
    }
    const ready = store.messages().find((message) => message.id > after && sentTo(message, phone));
    if (ready !== undefined) {
      json(res, 200, ready);
      return;
    }
    if (waiting >= MAX_WAITS) {
      problem(res, 503, 'busy', `at most ${MAX_WAITS} waits at once`);
      return;
    }
    waiting += 1;
    const done = (): void => {
      waiting -= 1;
      clearTimeout(timer);
      unsubscribe();
      res.off('close', done);
    };
    const unsubscribe = store.subscribe((change) => {
      if (change.type !== 'message' || change.message.id <= after || !sentTo(change.message, phone)) return;
      done();
      json(res, 200, change.message);
    });
    const timer = setTimeout(() => {
      done();
      if (!res.destroyed) res.writeHead(204, COMMON_HEADERS).end();
    }, timeout);
    res.on('close', done);
  };

  /** Server-sent events: a `snapshot` first, then `message`, `lookup` and `clear` as they happen. */
  const stream = (res: ServerResponse): void => {
    if (!holdOpen(res)) return;
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'content-security-policy': DATA_CSP,
      'content-type': 'text/event-stream; charset=utf-8',
    });
    // JSON.stringify escapes line breaks, so each event's data is one line.
    const writeRaw = (text: string): number => {
      res.write(text);
      return Buffer.byteLength(text);
    };
    const write = (event: string, data: unknown): number =>
      writeRaw(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    res.write('retry: 1000\n\n');
    // A snapshot is bounded like a list answer; the backlog allowed is counted beyond it.
    const allowed = writeRaw(snapshotEvent()) + MAX_STREAM_BACKLOG;
    const send = (event: string, data: unknown): void => {
      if (res.destroyed) return;
      if (res.writableLength > allowed) res.destroy();
      else write(event, data);
    };
    const unsubscribe = store.subscribe((change: InboxChange) => send(change.type, change));
    const heartbeat = setInterval(() => {
      if (!res.destroyed) res.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    heartbeat.unref();
    res.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
  };

  const api = (req: IncomingMessage, res: ServerResponse, url: URL, route: string): void => {
    const method = req.method ?? 'GET';
    if (method === 'DELETE' && (route === 'messages' || route === 'lookups')) {
      store.clear(route);
      res.writeHead(204, COMMON_HEADERS).end();
      return;
    }
    if (method !== 'GET') {
      problem(res, 405, 'method_not_allowed', 'GET, or DELETE on messages and lookups');
      return;
    }
    const phone = url.searchParams.get('phone');
    const newestFirst = (list: readonly InboxMessage[]) => list.filter((m) => sentTo(m, phone)).reverse();
    if (route === 'messages' || route === 'lookups') {
      const before = wholeNumber(url.searchParams.get('before'), Number.MAX_SAFE_INTEGER);
      if (before === undefined) problem(res, 400, 'bad_request', 'before is a message or lookup id');
      else if (holdOpen(res)) {
        const page =
          route === 'messages'
            ? newestPage(store.messages(), MAX_ANSWER_BYTES - ENVELOPE_BYTES, before, (m) => sentTo(m, phone))
            : newestPage(store.lookups(), MAX_ANSWER_BYTES - ENVELOPE_BYTES, before, () => true);
        reply(res, 200, 'application/json; charset=utf-8', listAnswer(route, page));
      }
    } else if (route === 'events') stream(res);
    else if (route === 'messages/next') waitForNext(res, url);
    else if (route === 'messages/latest') {
      const latest = newestFirst(store.messages())[0];
      if (latest === undefined) problem(res, 404, 'not_found', 'no message yet');
      else json(res, 200, latest);
    } else {
      const id = /^messages\/(\d{1,15})$/.exec(route)?.[1];
      const found = id === undefined ? undefined : store.messages().find((m) => m.id === Number(id));
      if (found === undefined) problem(res, 404, 'not_found', `nothing at ${INBOX_PATH}/api/${route}`);
      else json(res, 200, found);
    }
  };

  return (req, res, url) => {
    // The inbox reads no body; drain whatever was sent so the connection stays usable.
    req.resume();
    const route = url.pathname.slice(INBOX_PATH.length).replace(/^\/+|\/+$/g, '');
    const isStatic = route === '' || route === 'inbox.js' || route === 'inbox.css';
    // The page and its resources hold no data: with a token they load freely, and the page asks for it.
    if (!(isStatic && access.tokenRequired) && !access.allows(req, url)) {
      if (access.tokenRequired) problem(res, 401, 'unauthorized', 'this inbox needs the token given at start');
      else problem(res, 403, 'forbidden', 'the inbox answers loopback host names only (127.0.0.1, localhost, [::1])');
      return;
    }
    if (isStatic && req.method !== 'GET' && req.method !== 'HEAD') {
      problem(res, 405, 'method_not_allowed', 'GET only');
    } else if (route === '') reply(res, 200, 'text/html; charset=utf-8', PAGE_HTML, PAGE_CSP);
    else if (route === 'inbox.js') reply(res, 200, 'text/javascript; charset=utf-8', PAGE_SCRIPT);
    else if (route === 'inbox.css') reply(res, 200, 'text/css; charset=utf-8', PAGE_STYLE);
    else if (route.startsWith('api/')) api(req, res, url, route.slice('api/'.length));
    else problem(res, 404, 'not_found', `nothing at ${url.pathname}: the inbox is at ${INBOX_PATH}`);
  };
}
