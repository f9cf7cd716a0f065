import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A running benchmark server (see server-process.ts). */
export interface BenchServer {
  /** Base URL for `HashScanClient` and the raw loops; lookups go to `${url}/hash_scan`. */
  readonly url: string;
  readonly apiKey: string;
  /** How late the server answers each lookup (0: at once). */
  readonly delayMs: number;
  /** Lookups answered since the last reset. */
  lookups(): Promise<number>;
  /** Lookups answered 429 (rate limited) since the last reset. */
  refused(): Promise<number>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** A key that needs URL-encoding, so every client must encode it to be let in. */
const BENCH_API_KEY = 'bench key/+=&1';

function ask(child: ChildProcess, message: string): Promise<{ lookups: number; refused: number }> {
  return new Promise((resolve) => {
    child.once('message', (reply) => resolve(reply as { lookups: number; refused: number }));
    child.send(message);
  });
}

/** Starts a server process; `delayMs` > 0 makes it a remote-like service answering that late; `slow`: one hash answered `ms` late. */
export async function startServer(
  delayMs = 0,
  ratePerSecond = 0,
  slow?: { readonly hash: string; readonly ms: number },
): Promise<BenchServer> {
  const child = fork(fileURLToPath(new URL('./server-process.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      BENCH_API_KEY,
      BENCH_DELAY_MS: String(delayMs),
      BENCH_RATE: String(ratePerSecond),
      ...(slow === undefined ? {} : { BENCH_SLOW_HASH: slow.hash, BENCH_SLOW_MS: String(slow.ms) }),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { port: number }));
    child.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: BENCH_API_KEY,
    delayMs,
    lookups: async () => (await ask(child, 'count')).lookups,
    refused: async () => (await ask(child, 'count')).refused,
    reset: async () => {
      await ask(child, 'reset');
    },
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}
