import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';

export interface Machine {
  readonly cpu: string;
  readonly nproc: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly os: string;
  /** 1-minute load average when the run started and when it ended: how busy the neighbours were. */
  readonly load: { readonly start: number; readonly end: number };
}

const load1 = (): number => Number((loadavg()[0] ?? 0).toFixed(2));
const startLoad = load1();

export function machine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    nproc: availableParallelism(),
    memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
    node: process.version,
    os: `${process.platform} ${release()}`,
    load: { start: startLoad, end: load1() },
  };
}
