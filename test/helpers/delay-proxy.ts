import { connect, createServer, type Socket } from 'node:net';

/** A TCP proxy on loopback that holds every chunk coming back from `target` for `delayMs`. */
export interface DelayProxy {
  readonly port: number;
  /** Changes the delay of the chunks that arrive from now on. */
  setDelay(delayMs: number | (() => number)): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy to `127.0.0.1:targetPort` whose answers arrive `delayMs` late (a slow Redis, say);
 * a function gives each chunk its own delay (jitter), chunks still arriving in order.
 */
export async function startDelayProxy(targetPort: number, delayMs: number | (() => number)): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  let delay = delayMs;
  const server = createServer((client) => {
    // One queue per connection, released in order: a shorter delay never overtakes a longer one before it.
    const queue: Array<{ chunk: Buffer; at: number }> = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pump = (): void => {
      timer = undefined;
      while (queue.length > 0 && (queue[0]?.at ?? 0) <= Date.now()) {
        const next = queue.shift();
        if (next !== undefined && client.writable) client.write(next.chunk);
      }
      if (queue.length > 0) timer = setTimeout(pump, Math.max(0, (queue[0]?.at ?? 0) - Date.now()));
    };
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
      const wanted = Date.now() + (typeof delay === 'number' ? delay : delay());
      queue.push({ chunk, at: Math.max(wanted, queue.at(-1)?.at ?? 0) });
      if (timer === undefined) timer = setTimeout(pump, Math.max(0, wanted - Date.now()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return {
    port: address.port,
    setDelay: (next) => {
      delay = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
