import { availableParallelism, cpus, release, totalmem } from 'node:os';

export interface Machine {
  readonly cpu: string;
  readonly nproc: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly os: string;
}

export function machine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    nproc: availableParallelism(),
    memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
    node: process.version,
    os: `${process.platform} ${release()}`,
  };
}
