import { delay, type HttpHandler, HttpResponse, http } from 'msw';
import { createHashLookupService, type HashScanServiceOptions } from '../doubles/hash-lookup-service.js';
import type { RecordedRequest } from '../doubles/request-log.js';
import { halfBody, type ServiceHandler, type ServiceReply, type ServiceResponse } from '../doubles/service-handler.js';
import { createSmsService, type SentMessage, type SmsServiceOptions } from '../doubles/sms-service.js';
import { ConfigurationError } from '../errors/configuration-error.js';

/** Options every handler factory shares. */
export interface HandlerOptions {
  /**
   * The base URL your client is configured with: an origin and an optional
   * path prefix, e.g. `https://hashscan.test` or `https://api.test/v1`.
   */
  readonly baseUrl: string;
  /** Called with each request as it is recorded (secrets masked). */
  readonly onRequest?: ((request: RecordedRequest) => void) | undefined;
}

/** Options of {@link createHashScanHandlers}. */
export interface HashScanHandlerOptions extends HandlerOptions, HashScanServiceOptions {}

/** Options of {@link createSmsHandlers}. */
export interface SmsHandlerOptions extends HandlerOptions, SmsServiceOptions {}

/** msw handlers (spread them into `setupServer`/`server.use`) with what they recorded. */
export type HashScanHandlers = HttpHandler[] & {
  /** Every request answered, in order, with secrets masked. */
  readonly requests: readonly RecordedRequest[];
};

/** msw handlers with what they recorded and the messages they accepted. */
export type SmsHandlers = HttpHandler[] & {
  /** Every request answered, failures included, in order, with secrets masked. */
  readonly requests: readonly RecordedRequest[];
  /** Accepted messages, in order; failures are not here (they are in `requests`). */
  readonly messages: readonly SentMessage[];
};

/** `https://x.test/v1/` → `https://x.test/v1`; refuses what msw cannot match on. */
function handlerBase(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigurationError('baseUrl', 'is not a valid absolute URL');
  }
  if (url.search !== '' || url.hash !== '')
    throw new ConfigurationError('baseUrl', 'must not have a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function toResponse(response: ServiceResponse, body: BodyInit = response.body): Response {
  return new HttpResponse(body, { status: response.status, headers: response.headers });
}

/** Plays a service reply through msw, faults included. */
async function play(reply: ServiceReply): Promise<Response> {
  switch (reply.kind) {
    case 'respond':
      return toResponse(reply.response);
    case 'stall':
      // 'infinite' never settles and holds no timer, so it cannot keep a test run alive.
      await delay(reply.afterMs ?? 'infinite');
      return toResponse(reply.response);
    case 'drop':
      return HttpResponse.error();
    case 'partial-body': {
      const half = halfBody(reply.response.body);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(half));
          controller.error(new TypeError('the sandbox cut the connection mid-body'));
        },
      });
      return toResponse(reply.response, stream);
    }
  }
}

async function serve(service: ServiceHandler, request: Request): Promise<Response> {
  const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
  return play(service({ method: request.method, url: new URL(request.url), headers: request.headers, body }));
}

/** A request log that also tells `onRequest`. */
function requestLog(onRequest: HandlerOptions['onRequest']) {
  const requests: RecordedRequest[] = [];
  const sink = (entry: RecordedRequest): void => {
    requests.push(entry);
    onRequest?.(entry);
  };
  return { requests, sink };
}

/**
 * msw handlers implementing the hash lookup spec (`GET {baseUrl}/hash_scan`)
 * over a table of records, with per-hash faults. See
 * {@link createHashLookupService} for what each request answers.
 *
 * @example
 * ```ts
 * const hashscan = createHashScanHandlers({
 *   baseUrl: 'https://hashscan.test',
 *   apiKey: 'test-key',
 *   records: [...SANDBOX_HASH_RECORDS, recordFor(upload)], // without the spread, EICAR is not flagged
 *   faults: { [otherSha256]: 'timeout' },
 * })
 * const server = setupServer(...hashscan)
 * // …
 * expect(hashscan.requests).toHaveLength(1)
 * ```
 */
export function createHashScanHandlers(options: HashScanHandlerOptions): HashScanHandlers {
  const base = handlerBase(options.baseUrl);
  const { requests, sink } = requestLog(options.onRequest);
  const service = createHashLookupService(options, sink);
  const handlers = [http.get(`${base}/hash_scan`, ({ request }) => serve(service, request))];
  return Object.assign(handlers, { requests });
}

/**
 * msw handlers implementing the SMS spec on `{baseUrl}/` for every method:
 * the routing table, the AK/SK mode with signature checks, templates,
 * accounts and billing. See {@link createSmsService} for the answers.
 *
 * @example
 * ```ts
 * const sms = createSmsHandlers({ baseUrl: 'https://sms.test' })
 * server.use(...sms)
 * const client = new SmsClient({ baseUrl: 'https://sms.test', ...SANDBOX_ACCOUNTS.member })
 * await client.send({ phoneNumbers: '13800000000', templateCode: 'SMS_100000001', templateParam: { code: '1234' } })
 * expect(sms.messages[0]?.billedCount).toBe(2)
 * ```
 */
export function createSmsHandlers(options: SmsHandlerOptions): SmsHandlers {
  const base = handlerBase(options.baseUrl);
  const { requests, sink } = requestLog(options.onRequest);
  const messages: SentMessage[] = [];
  const service = createSmsService(options, { requests: sink, messages: (message) => messages.push(message) });
  const handlers = [http.all(`${base}/`, ({ request }) => serve(service, request))];
  return Object.assign(handlers, { requests, messages });
}
