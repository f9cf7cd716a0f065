import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, ftruncateSync, openSync } from 'node:fs';
import { join } from 'node:path';

/** How the second process changes the file once it has seen it being read. */
export type Mutation = 'truncate' | 'append' | 'rewrite';

/** A sparse file of `size` bytes (zeros that cost no disk), for a read long enough to be changed under. */
function sparseFile(path: string, size: number): void {
  const fd = openSync(path, 'w');
  try {
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

/**
 * The second process: told a reader's pid on stdin, it polls that process's
 * open descriptors (`/proc/<pid>/fd`) for `file` and their offsets
 * (`/proc/<pid>/fdinfo`), and changes the file once the reader is past its
 * first read and before its middle: a real read in progress, in another
 * process, not a hook in the reader. It prints the offset it acted at, or
 * `missed` when it first saw the reader already past the middle (the test
 * then tries again: that run proves nothing either way), or `late` when,
 * just after the change, the reader was no longer reading (its check after
 * the read may have come before the change: tried again too).
 */
const MUTATOR = String.raw`
const fs = require('node:fs');
const [file, mode] = process.argv.slice(1);
const size = fs.statSync(file).size;
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
let input = '';
let pid = '';
/** The reader's offset in the file (-1: not open), or null when the process is gone. */
function position() {
  let names;
  try { names = fs.readdirSync('/proc/' + pid + '/fd'); } catch { return null; }
  let pos = -1;
  for (const fd of names) {
    try {
      if (fs.readlinkSync('/proc/' + pid + '/fd/' + fd) !== file) continue;
      const info = fs.readFileSync('/proc/' + pid + '/fdinfo/' + fd, 'utf8');
      pos = Math.max(pos, Number(/^pos:\s*(\d+)/m.exec(info)[1]));
    } catch {}
  }
  return pos;
}
process.stdout.write('ready\n');
process.stdin.setEncoding('utf8').on('data', (chunk) => {
  input += chunk;
  if (!input.includes('\n')) return;
  process.stdin.pause();
  pid = input.trim();
  const deadline = Date.now() + 20000;
  for (;;) {
    if (Date.now() > deadline) { process.stdout.write('timeout\n'); process.exit(1); }
    const pos = position();
    if (pos === null) { process.stdout.write('gone\n'); process.exit(1); }
    if (pos <= 0) continue;
    if (pos > size / 2) { process.stdout.write('missed\n'); process.exit(0); }
    if (mode === 'truncate') fs.truncateSync(file, 4096);
    else if (mode === 'append') fs.appendFileSync(file, 'more');
    else { const fd = fs.openSync(file, 'r+'); fs.writeSync(fd, EICAR, 0); fs.closeSync(fd); }
    // Proof the read was still under way after the change (its end, and the check after it, still to come).
    const after = position();
    process.stdout.write(after !== null && after > 0 && after < size ? 'changed at ' + pos + '\n' : 'late\n');
    process.exit(0);
  }
});
`;

/** A started mutator: give it the reader's pid, then wait for what it did. */
interface Mutator {
  watch(pid: number): void;
  /** `changed at N`, `missed`, `late`, `gone` or `timeout`. */
  readonly result: Promise<string>;
}

/** Starts the second process and waits until it is running, so it sees the read from its start. */
async function startMutator(file: string, mode: Mutation): Promise<Mutator> {
  const child = spawn(process.execPath, ['-e', MUTATOR, file, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let ready: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (ready = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    if (out.startsWith('ready\n')) ready();
  });
  const result = once(child, 'close').then(() => out.replace(/^ready\n/, '').trim());
  await Promise.race([started, result]);
  return { watch: (pid) => child.stdin.end(`${pid}\n`), result };
}

/** A read under way: the process reading, and what the read comes to. */
export interface Reading<T> {
  readonly pid: number;
  readonly settled: Promise<T>;
}

/** Large enough that the read is still under way when the second process acts. */
const SIZE = 128 * 1024 * 1024;

/**
 * Starts `read` of a fresh 128 MiB file in `dir` while a second process changes it (`mode`) once the
 * read is under way, and gives what the read came to; tries again when that process saw the read
 * too early or too late to prove anything (`missed`, `late`).
 */
export async function readWhileChanged<T>(
  dir: string,
  name: string,
  mode: Mutation,
  read: (path: string) => Reading<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const path = join(dir, `${name}-${attempt}.bin`);
    sparseFile(path, SIZE);
    const mutator = await startMutator(path, mode);
    const reading = read(path);
    mutator.watch(reading.pid);
    const settled = await reading.settled;
    const did = await mutator.result;
    if (did.startsWith('changed at ')) return settled;
    if ((did !== 'missed' && did !== 'late') || attempt === 5)
      throw new Error(`the second process did not change the file: ${did}`);
  }
}
