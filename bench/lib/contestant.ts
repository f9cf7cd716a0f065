import { spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A numeric `--name N` of the bench's command line, else `fallback`. */
export function numberOption(name: string, fallback: number): number {
  const args = process.argv.slice(2);
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(args[at + 1]);
}

/** One contestant run: wall time, CPU (user + system, µs), exit status and what it printed on stderr. */
export interface ContestantRun {
  readonly ms: number;
  readonly cpuUs: number;
  readonly code: number;
  readonly stderr: string;
}

/**
 * Runs `node [command…]` in a process of its own from `root`, stdout to /dev/null, its CPU time
 * written at exit by the preload bench/cli/cpu-report.cjs into a file under `scratch`. An exit
 * status outside `allowed` rejects, with what it printed on stderr.
 */
export function runContestant(
  command: readonly string[],
  options: {
    readonly root: string;
    readonly scratch: string;
    readonly env: Readonly<Record<string, string>>;
    readonly allowed?: readonly number[];
  },
): Promise<ContestantRun> {
  const cpuFile = join(options.scratch, 'cpu');
  const out = openSync('/dev/null', 'w');
  const started = performance.now();
  const child = spawn(process.execPath, ['--require', join(options.root, 'bench/cli/cpu-report.cjs'), ...command], {
    cwd: options.root,
    env: { ...process.env, ...options.env, BENCH_CPU_FILE: cpuFile },
    stdio: ['ignore', out, 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('close', (code) => {
      const ms = performance.now() - started;
      if (code === null || !(options.allowed ?? [0]).includes(code)) {
        reject(new Error(`${command.join(' ')} exited ${code}: ${stderr}`));
        return;
      }
      resolve({ ms, cpuUs: Number(readFileSync(cpuFile, 'utf8').split(' ')[0]), code, stderr });
    });
  });
}
