import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** A throw-away `redis-server` on a loopback port: no persistence, stopped by `stop()`. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** The server's process id (to stall it with `SIGSTOP`). */
  readonly pid: number;
  stop(): Promise<void>;
  /** Kills the server with `signal` (no shutdown of its own: SIGKILL loses everything at once). */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Whether a `redis-server` binary is on PATH. */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function ready(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => done(new Error(`redis-server not ready within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const done = (error?: Error): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) done();
    };
    const onExit = (code: number | null): void => done(new Error(`redis-server exited (${code}):\n${output}`));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * Starts `redis-server` on a free loopback port (a port taken between the
 * probe and the start is retried on another one), or on `onPort`.
 */
export async function startRedisServer(onPort?: number): Promise<RedisServer> {
  let lastError: unknown;
  for (let tries = 0; tries < 3; tries++) {
    // A given port (a restart of a stopped server) is tried as is.
    const port = onPort ?? (await freePort());
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await ready(child, 10_000);
    } catch (error) {
      lastError = error;
      child.kill('SIGKILL');
      continue;
    }
    child.stdout?.resume(); // keep draining its log
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      pid: child.pid ?? 0,
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
      kill: async (signal) => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        await exited;
      },
    };
  }
  throw lastError;
}
