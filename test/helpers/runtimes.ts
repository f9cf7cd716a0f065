import { fileURLToPath } from 'node:url';

/** A server-side runtime the package supports, with the command that runs a script under it. */
export interface Runtime {
  readonly name: 'node' | 'bun' | 'deno';
  /** The executable. */
  readonly bin: string;
  /** Arguments before the script: Deno's permissions (read, net, env for the child's options) and its Node-module mode. */
  readonly args: readonly string[];
}

const bin = (path: string): string => fileURLToPath(new URL(`../../node_modules/${path}`, import.meta.url));

/** Bun and Deno from their npm packages (pinned devDependencies, binaries inside), beside this Node. */
export const RUNTIMES: readonly Runtime[] = [
  { name: 'node', bin: process.execPath, args: [] },
  { name: 'bun', bin: bin('bun/bin/bun.exe'), args: [] },
  { name: 'deno', bin: bin('deno/deno'), args: ['run', '--allow-read', '--allow-net', '--allow-env', '--allow-sys'] },
];
