/**
 * The minimal HTTP model the sandbox services are written against, so the
 * protocol logic exists once and msw and `node:http` are thin adapters.
 * @module
 */

/** A received request, reduced to what the services read. */
export interface ServiceRequest {
  /** Upper-case method, as received. */
  readonly method: string;
  /** The request URL, query string included (the `node:http` sandbox fills in a placeholder origin). */
  readonly url: URL;
  /** The request headers, as received. */
  readonly headers: Headers;
  /** The whole body as text (`''` when there is none). */
  readonly body: string;
}

/** A complete HTTP response. The body is text so that a fault can send broken JSON. */
export interface ServiceResponse {
  /** HTTP status code. */
  readonly status: number;
  /** Response headers to send. */
  readonly headers: Readonly<Record<string, string>>;
  /** The whole body as text (possibly deliberately broken JSON). */
  readonly body: string;
}

/**
 * What an adapter must do with a request: answer it, or misbehave the way a
 * broken server or network does.
 *
 * - `respond`: send `response`.
 * - `stall`: hold the connection; after `afterMs` (if set) send `response`.
 * - `drop`: cut the connection without answering.
 * - `partial-body`: send the status, the headers and half of the body, then cut.
 */
export type ServiceReply =
  | {
      /** Answer normally. */
      readonly kind: 'respond';
      /** The response to send. */
      readonly response: ServiceResponse;
    }
  | {
      /** Hold the connection open. */
      readonly kind: 'stall';
      /** Milliseconds to wait before sending `response`; `undefined` holds it until the client gives up or the sandbox closes. */
      readonly afterMs: number | undefined;
      /** The response sent once `afterMs` has passed. */
      readonly response: ServiceResponse;
    }
  | {
      /** Cut the connection without answering. */
      readonly kind: 'drop';
    }
  | {
      /** Send the status, the headers and half of the body, then cut the connection. */
      readonly kind: 'partial-body';
      /** The response whose body is cut in half (in bytes, at least one byte sent). */
      readonly response: ServiceResponse;
    };

/** A service: one request in, one reply out. */
export type ServiceHandler = (request: ServiceRequest) => ServiceReply;

/** A JSON response with the right content type. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): ServiceResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** Wraps a response as a plain `respond` reply. */
export function respond(response: ServiceResponse): ServiceReply {
  return { kind: 'respond', response };
}

/** The HTTP status a reply sends, if it sends one (a cut or endless stall sends none). */
export function replyStatus(reply: ServiceReply): number | undefined {
  if (reply.kind === 'drop' || (reply.kind === 'stall' && reply.afterMs === undefined)) return undefined;
  return reply.response.status;
}

/** The first half (in bytes, at least one byte) of a body, for the `partial-body` fault. */
export function halfBody(body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  return bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2)));
}
