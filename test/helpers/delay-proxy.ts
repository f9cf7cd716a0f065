import { connect, createServer, type Socket } from 'node:net';

/** A TCP proxy on loopback that holds every chunk coming back from `target` for `delayMs`. */
export interface DelayProxy {
  readonly port: number;
  close(): Promise<void>;
}

/** Starts a proxy to `127.0.0.1:targetPort` whose answers arrive `delayMs` late (a slow Redis, say). */
export async function startDelayProxy(targetPort: number, delayMs: number): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      setTimeout(() => client.writable && client.write(chunk), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
