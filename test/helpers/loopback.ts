import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Loopback {
  readonly url: string;
  readonly hits: () => number;
  close(): Promise<void>;
}

/** A real `node:http` server on 127.0.0.1 for what msw cannot fake (resets, stalls, cut bodies). */
export async function startLoopback(
  handler: (request: IncomingMessage, response: ServerResponse, socket: Socket) => void,
): Promise<Loopback> {
  let hits = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    hits += 1;
    handler(request, response, request.socket);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port that was just free: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves when the server side of a connection closes: the client really cut it. */
export const closed = (socket: Socket): Promise<void> =>
  new Promise((resolve) => socket.once('close', () => resolve()));

/** A request's whole body, as text. */
export async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}
