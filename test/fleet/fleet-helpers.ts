import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { ReplicaConfig } from './replica.js';

const REPLICA = fileURLToPath(new URL('./replica.ts', import.meta.url));

/** What a replica printed: its outcomes in input order, its stats and its log lines. */
export interface ReplicaReport {
  readonly results: Array<{ hash?: string; verdict?: string; error?: string; code?: string; outcome?: string }>;
  readonly stats: { requests: number; fleet?: Record<string, number>; cache?: Record<string, number> };
  readonly log: string[];
}

/** Runs one replica as its own process; resolves with its report once it exits. */
export function runReplica(config: Omit<ReplicaConfig, 'startAt'> & { startAt?: number }): {
  done: Promise<ReplicaReport>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', REPLICA], {
    env: { ...process.env, TSX_DISABLE_CACHE: '1', REPLICA: JSON.stringify({ startAt: Date.now(), ...config }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const done = new Promise<ReplicaReport>((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`replica exited ${code}: ${err}`));
      else {
        try {
          resolve(JSON.parse(out) as ReplicaReport);
        } catch {
          reject(new Error(`replica printed no report: ${out}\n${err}`));
        }
      }
    });
  });
  return { done };
}

/** A prefix of its own for one test: replicas of different tests never share state. */
export const freshPrefix = (): string => `fleet-test:${randomUUID()}`;

/** `count` distinct SHA-256 hex strings, deterministic from `seed`. */
export function hashes(count: number, seed: string): string[] {
  return Array.from({ length: count }, (_, index) => createHash('sha256').update(`${seed}:${index}`).digest('hex'));
}
