import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SANDBOX_ACCOUNTS, SANDBOX_API_KEY } from '../doubles/defaults.js';
import { createHashLookupService, type HashScanServiceOptions } from '../doubles/hash-lookup-service.js';
import type { RecordedRequest } from '../doubles/request-log.js';
import { halfBody, type ServiceReply, type ServiceRequest, type ServiceResponse } from '../doubles/service-handler.js';
import { createSmsService, type SentMessage, type SmsServiceOptions } from '../doubles/sms-service.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { crossSiteReason, crossSiteRefusal } from './browser-guard.js';
import {
  createInbox,
  INBOX_PATH,
  type Inbox,
  type InboxOptions,
  isInboxPath,
  isLoopbackAddress,
} from './inbox/index.js';
import { refusal, serviceAt } from './routes.js';

/**
 * Options of {@link startSandbox}.
 *
 * @example
 * ```ts
 * await startSandbox({ hashScan: { records: [...SANDBOX_HASH_RECORDS, recordFor(upload)] }, sms: { templates: { SMS_1: 'Hi ${name}' } } })
 * ```
 */
export interface SandboxOptions {
  /**
   * Interface to bind. Anything but loopback exposes the sandbox to the
   * network, and then `inbox.token` is required.
   * @defaultValue `'127.0.0.1'`
   */
  readonly host?: string | undefined;
  /** @defaultValue 0 (a free port) */
  readonly port?: number | undefined;
  /** The hash lookup double. @defaultValue the sandbox data (see `SANDBOX_*` constants) */
  readonly hashScan?: HashScanServiceOptions | undefined;
  /** The SMS double. @defaultValue the sandbox data */
  readonly sms?: SmsServiceOptions | undefined;
  /** Larger request bodies answer HTTP 413. @defaultValue 1048576 (1 MiB) */
  readonly maxBodyBytes?: number | undefined;
  /**
   * The inbox at {@link Sandbox.inboxUrl}: how many entries it keeps, and
   * its token (required when `host` is not loopback).
   * @defaultValue `{ limit: 1000 }`, no token
   */
  readonly inbox?: InboxOptions | undefined;
  /**
   * `requests` and `messages` keep the last this many each, the oldest
   * dropped first: for a sandbox that runs for long (the CLI's sets 1000).
   * @defaultValue no limit (tests count every request)
   */
  readonly recordLimit?: number | undefined;
}

/** A running sandbox. */
export interface Sandbox {
  /**
   * `http://127.0.0.1:PORT`: the base URL of both services, as the specs lay
   * them out (SMS at `{url}/`, lookups at `{url}/hash_scan`), so any client of
   * the vendor protocol, whose path is fixed at `/`, works unchanged.
   */
  readonly url: string;
  /** Base URL for `HashScanClient`: the same as `url` (lookups at `{url}/hash_scan`). */
  readonly hashScanUrl: string;
  /** Base URL for `SmsClient`: the same as `url` (the SMS address is `{url}/`). */
  readonly smsUrl: string;
  /**
   * `{url}/_inbox`: a web page showing every send and lookup live, with its
   * JSON API under `{inboxUrl}/api/` (see docs/sandbox-inbox.md).
   */
  readonly inboxUrl: string;
  /** The accepted `api_key`. */
  readonly apiKey: string;
  /** Credentials of the first configured account (by default the member account). */
  readonly accessKeyId: string;
  /** Secret of the same account, to sign SMS requests with. */
  readonly accessKeySecret: string;
  /** Every request, both services, in order, with secrets masked (the last `recordLimit`, if set). */
  readonly requests: readonly RecordedRequest[];
  /** Accepted SMS messages, in order (the last `recordLimit`, if set). */
  readonly messages: readonly SentMessage[];
  /** Stops listening and destroys every connection, stalled ones included. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 1024 * 1024;

class BodyTooLarge extends Error {}

async function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Whether a request announces a body. One with neither `content-length` nor
 * `transfer-encoding` has none (RFC 9112, 6.3): a lookup is answered at once,
 * without waiting on the stream for an end it has already reached.
 */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

/**
 * The request as the services see it. The WHATWG `Headers` is built only if
 * a service reads it (the SMS double does, the lookup does not): a few
 * microseconds of every lookup otherwise.
 */
function serviceRequest(req: IncomingMessage, url: URL, body: string): ServiceRequest {
  let headers: Headers | undefined;
  return {
    method: req.method ?? 'GET',
    url,
    body,
    get headers(): Headers {
      if (headers === undefined) {
        headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) {
          for (const one of Array.isArray(value) ? value : [value ?? '']) headers.append(name, one);
        }
      }
      return headers;
    },
  };
}

function send(res: ServerResponse, response: ServiceResponse): void {
  if (res.destroyed) return;
  res.writeHead(response.status, response.headers).end(response.body);
}

/**
 * Starts a real HTTP server on loopback that serves, on one base URL, the SMS
 * double at `/` and the hash lookup double at `/hash_scan` (as the specs lay
 * them out; the older `/sms/` and `/hashscan/hash_scan` work too), from the
 * same logic as the msw handlers. Faults are real: a time-out holds the
 * socket, a connection error destroys it, a partial body is cut mid-way.
 * Any other path answers HTTP 404 in the error shape of the service the
 * request looks meant for (`{Code, Message, RequestId: ""}` for SMS).
 * Every path answers 403 to what a page on another origin makes a browser
 * send (its keys are public: such a page could send through it); clients
 * that send no `Origin` or `Sec-Fetch-Site` header are served.
 * Needs no msw: import it from `hashscan-sms/sandbox`.
 *
 * @example
 * ```ts
 * const sandbox = await startSandbox()
 * const client = new HashScanClient({ baseUrl: sandbox.hashScanUrl, apiKey: sandbox.apiKey })
 * await client.scan(EICAR_RECORD.sha256) // malicious
 * await sandbox.close()
 * ```
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const recordLimit = options.recordLimit ?? Number.POSITIVE_INFINITY;
  if (!(recordLimit === Number.POSITIVE_INFINITY || (Number.isSafeInteger(recordLimit) && recordLimit >= 1))) {
    throw new ConfigurationError('recordLimit', 'must be a whole number, 1 or more');
  }
  const requests: RecordedRequest[] = [];
  const messages: SentMessage[] = [];
  // Set once listening (the inbox shows the bound address); no request is served before.
  let inbox: Inbox | undefined;
  let loopback = true;
  // The SMS double reports an accepted message just before its request, in the same call.
  let accepted: SentMessage | undefined;
  const record = (entry: RecordedRequest): void => {
    if (requests.push(entry) > recordLimit) requests.shift();
    inbox?.record(entry, accepted);
    accepted = undefined;
  };
  const hashScan = createHashLookupService(options.hashScan ?? {}, record);
  const sms = createSmsService(options.sms ?? {}, {
    requests: record,
    messages: (message) => {
      if (messages.push(message) > recordLimit) messages.shift();
      accepted = message;
    },
  });
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const play = (reply: ServiceReply, req: IncomingMessage, res: ServerResponse): void => {
    switch (reply.kind) {
      case 'respond':
        send(res, reply.response);
        return;
      case 'stall': {
        // Without a delay, nothing is sent: the socket stays open until the client gives up or close().
        if (reply.afterMs === undefined) return;
        const timer = setTimeout(() => {
          timers.delete(timer);
          send(res, reply.response);
        }, reply.afterMs);
        timers.add(timer);
        return;
      }
      case 'drop':
        req.socket.destroy();
        return;
      case 'partial-body': {
        const half = halfBody(reply.response.body);
        const full = Buffer.byteLength(reply.response.body);
        res.writeHead(reply.response.status, { ...reply.response.headers, 'content-length': String(full) });
        res.write(half, () => req.socket.destroy());
        return;
      }
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const method = req.method ?? 'GET';
    const crossSite = crossSiteReason({ method, pathname: url.pathname, headers: req.headers }, loopback);
    if (crossSite !== undefined) {
      send(res, crossSiteRefusal(url, crossSite));
      return;
    }
    if (inbox !== undefined && isInboxPath(url.pathname)) {
      inbox.handle(req, res, url);
      return;
    }
    const name = serviceAt(url.pathname);
    if (name === undefined) {
      const message = `no sandbox service at ${url.pathname}: SMS is at /, the hash lookup at /hash_scan`;
      send(res, refusal(url, 404, 'InvalidPath.NotFound', message));
      return;
    }
    const service = name === 'sms' ? sms : hashScan;
    let body = '';
    try {
      if (hasBody(req)) body = await readBody(req, maxBodyBytes);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      // `connection: close` ends the socket once sent, so the unread rest of the body is dropped.
      const message = `bodies are limited to ${maxBodyBytes} bytes`;
      send(res, refusal(url, 413, 'PayloadTooLarge', message, { connection: 'close' }));
      return;
    }
    play(service(serviceRequest(req, url, body)), req, res);
  };

  // A client that hangs up mid-body, or a bug, must not take the test process down.
  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  loopback = isLoopbackAddress(address.address);
  try {
    inbox = createInbox(options.inbox ?? {}, address.address);
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }
  const account = options.sms?.accounts?.[0] ?? SANDBOX_ACCOUNTS.member;

  let closing: Promise<void> | undefined;
  return {
    url,
    hashScanUrl: url,
    smsUrl: url,
    inboxUrl: `${url}${INBOX_PATH}`,
    apiKey: options.hashScan?.apiKey ?? SANDBOX_API_KEY,
    accessKeyId: account.accessKeyId,
    accessKeySecret: account.accessKeySecret,
    requests,
    messages,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
