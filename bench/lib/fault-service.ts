import { createHash } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the service does with one request. */
type Fault = 'ok' | 500 | 502 | 503 | 'reset' | 'stall' | 'bad-body';

/** Decides the fault of the `attempt`-th request (1-based) for `hash`. */
export type FaultPlan = (hash: string, attempt: number) => Fault;

/** A lookup service on loopback that answers by a fault plan, counting requests. */
export interface FaultService {
  readonly url: string;
  requests: number;
  /** Forgets the attempt counts (each contender starts from the same plan). */
  reset(): void;
  close(): Promise<void>;
}

const NOT_DETECTED = JSON.stringify({
  status: 'success',
  is_virus: false,
  message: 'No active service detected this file',
});

/** A number in [0, 1) fixed by `text`: the same hash and attempt get the same fault in every contender. */
function unit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** 10 % of hashes always answer HTTP 500; the rest answer normally. */
export const partialFault: FaultPlan = (hash) => (unit(`bad:${hash}`) < 0.1 ? 500 : 'ok');

/**
 * A 20 % mix: 4 % of hashes always answer 500; each request of the others
 * fails with 4 % 502/503, 4 % connection resets, 4 % stalls (an answer after
 * `stallMs`, past the client's time-out) and 4 % bad bodies.
 */
export const mixedFault: FaultPlan = (hash, attempt) => {
  if (unit(`bad:${hash}`) < 0.04) return 500;
  const draw = unit(`${hash}:${attempt}`);
  if (draw < 0.02) return 502;
  if (draw < 0.04) return 503;
  if (draw < 0.08) return 'reset';
  if (draw < 0.12) return 'stall';
  if (draw < 0.16) return 'bad-body';
  return 'ok';
};

function answer(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(body);
}

/**
 * In-process on purpose, like the fleet service: what is measured is which
 * answers come back and how many requests it took, not CPU.
 */
export async function startFaultService(plan: FaultPlan, latencyMs: number, stallMs: number): Promise<FaultService> {
  const state = { requests: 0, attempts: new Map<string, number>() };
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    state.requests += 1;
    request.resume();
    const hash = new URL(request.url ?? '/', 'http://x').searchParams.get('hash') ?? '';
    const attempt = (state.attempts.get(hash) ?? 0) + 1;
    state.attempts.set(hash, attempt);
    const fault = plan(hash, attempt);
    if (fault === 'reset') {
      request.socket.destroy();
      return;
    }
    setTimeout(
      () => {
        if (fault === 'ok' || fault === 'stall') answer(response, 200, NOT_DETECTED);
        else if (fault === 'bad-body') answer(response, 200, '{"status":"success","is_virus":false}');
        else answer(response, fault, '{"error":"failure"}');
      },
      fault === 'stall' ? stallMs : latencyMs,
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    set requests(count: number) {
      state.requests = count;
    },
    reset: () => state.attempts.clear(),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
