import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fleet benchmark's service answers: a normal answer, or an outage (503). */
type ServiceMode = 'up' | 'down';

/** A lookup service on loopback with a fixed latency per answer, counting the requests it gets. */
export interface FleetService {
  readonly url: string;
  mode: ServiceMode;
  requests: number;
  close(): Promise<void>;
}

const NOT_DETECTED = JSON.stringify({
  status: 'success',
  is_virus: false,
  message: 'No active service detected this file',
});

/**
 * In-process on purpose: what is measured here is requests sent and time
 * spent waiting (latency is simulated), not CPU, so sharing the process costs
 * nothing the comparison depends on.
 */
export async function startFleetService(latencyMs: number): Promise<FleetService> {
  const state = { mode: 'up' as ServiceMode, requests: 0 };
  const server: Server = createServer((request, response) => {
    state.requests += 1;
    request.resume();
    setTimeout(() => {
      if (state.mode === 'down') {
        response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' }).end(NOT_DETECTED);
      }
    }, latencyMs);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(mode: ServiceMode) {
      state.mode = mode;
    },
    get requests() {
      return state.requests;
    },
    set requests(count: number) {
      state.requests = count;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
