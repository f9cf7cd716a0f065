import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { startSandbox } from '../../src/sandbox/start-sandbox.js';
import { SmsClient, type SmsClientOptions } from '../../src/sms/sms-client.js';
import { REPLICA_SCRIPTS } from '../build-replicas.js';
import { collect } from '../helpers/child-output.js';
import type { ReplicaConfig } from './replica.js';

/** A node-redis client as the link sees it (never called here): enough to build a fleet without a server. */
export const STUB_REDIS = { sendCommand: async () => null, isReady: true, options: { disableOfflineQueue: true } };

/** The sandbox and an `SmsClient` of its account (from the client's own module, not the root entry). */
export async function sandboxSms(
  closers: Array<() => Promise<unknown>>,
  options: SmsClientOptions = {},
): Promise<{ sandbox: Awaited<ReturnType<typeof startSandbox>>; sms: SmsClient }> {
  const sandbox = await startSandbox();
  closers.push(() => sandbox.close());
  const account = { accessKeyId: sandbox.accessKeyId, accessKeySecret: sandbox.accessKeySecret };
  return { sandbox, sms: new SmsClient({ ...account, baseUrl: sandbox.smsUrl, ...options }) };
}

/** What a replica printed: its outcomes in input order, its stats and its log lines. */
export interface ReplicaReport {
  readonly results: Array<{ hash?: string; verdict?: string; error?: string; code?: string; outcome?: string }>;
  readonly stats: { requests: number; fleet?: Record<string, number>; cache?: Record<string, number> };
  readonly log: string[];
}

/**
 * Runs one replica as its own process: `connected` resolves once it holds its
 * Redis connection, `done` with its report once it exits.
 */
export function runReplica(config: Omit<ReplicaConfig, 'startAt'> & { startAt?: number }): {
  connected: Promise<void>;
  done: Promise<ReplicaReport>;
} {
  const child = spawn(process.execPath, [REPLICA_SCRIPTS.fleet], {
    env: { ...process.env, REPLICA: JSON.stringify({ startAt: Date.now(), ...config }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = collect(child).then(({ code, stdout, stderr }) => {
    if (code !== 0) throw new Error(`replica exited ${code}: ${stderr}`);
    try {
      return JSON.parse(stdout) as ReplicaReport;
    } catch {
      throw new Error(`replica printed no report: ${stdout}\n${stderr}`);
    }
  });
  const connected = new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: string) => {
      seen += chunk;
      if (seen.includes('replica connected\n')) resolve();
    });
    done.catch(reject);
  });
  connected.catch(() => {});
  return { connected, done };
}

/** A prefix of its own for one test: replicas of different tests never share state. */
export const freshPrefix = (): string => `fleet-test:${randomUUID()}`;

/** `count` distinct SHA-256 hex strings, deterministic from `seed`. */
export function hashes(count: number, seed: string): string[] {
  return Array.from({ length: count }, (_, index) => createHash('sha256').update(`${seed}:${index}`).digest('hex'));
}
