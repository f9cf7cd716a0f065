import { spawn } from 'node:child_process';
import { REPLICA_SCRIPTS } from '../build-replicas.js';
import { collect } from '../helpers/child-output.js';
import type { LimitsReplicaConfig } from './limits-replica.js';

/** What a limits replica printed. */
export interface LimitsReplicaReport {
  readonly delivered: number;
  readonly codes: Record<string, number>;
  readonly stats: { fleet?: Record<string, number>; limits?: Record<string, number> };
}

/** A replica process: `ready` once connected, `go()` starts its sends, `done` its report. */
export interface LimitsReplica {
  readonly ready: Promise<void>;
  go(): void;
  readonly done: Promise<LimitsReplicaReport>;
}

/** Starts one SMS replica as its own process. */
export function startLimitsReplica(config: LimitsReplicaConfig): LimitsReplica {
  const child = spawn(process.execPath, [REPLICA_SCRIPTS.limits], {
    env: { ...process.env, REPLICA: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer | string) => {
      seen += String(chunk);
      if (seen.includes('ready\n')) resolve();
    });
    child.once('close', () => reject(new Error(`replica ended before it was ready: ${seen}`)));
  });
  ready.catch(() => {});
  const done = collect(child).then(({ code, stdout, stderr }) => {
    if (code !== 0) throw new Error(`replica exited ${code}: ${stderr}`);
    try {
      return JSON.parse(stdout) as LimitsReplicaReport;
    } catch {
      throw new Error(`replica printed no report: ${stdout}\n${stderr}`);
    }
  });
  return { ready, go: () => child.kill('SIGUSR2'), done };
}
