import { lstat } from 'node:fs/promises';
import type { HashAlgorithm, HashedFile } from '../../index.js';
import { decide } from '../../index.js';
import { SecretMask } from '../../secrets/secret-mask.js';
import { CONNECTION_OPTIONS, type Command, OUTPUT_OPTIONS, oneOf, parseFlags, verdictHelp } from '../command.js';
import { flagNumber } from '../config.js';
import { hashFilesOffThread } from '../hashing/hash-off-thread.js';
import { Diagnostics } from '../io.js';
import { prepareLookups } from '../lookups/lookups.js';
import { nameCells, shownName } from '../names.js';
import { type Column, createWriter, FORMATS, type Row } from '../output/index.js';
import { Progress } from '../progress.js';
import { REDIS_HELP, REDIS_OPTION } from '../queue/fleet-flag.js';
import { errorCells, type OutcomeView, outcomeCells, TIME_COLUMNS } from '../scan-row.js';
import { type DecisionTally, describeTally, exitStatus } from '../tally.js';
import { UsageError } from '../usage-error.js';
import { walk } from '../walk.js';

const OPTIONS = {
  ...OUTPUT_OPTIONS,
  ...CONNECTION_OPTIONS,
  ...REDIS_OPTION,
  'api-key': { type: 'string' },
  concurrency: { type: 'string' },
  workers: { type: 'string' },
  'hash-concurrency': { type: 'string' },
  algorithm: { type: 'string', short: 'a', multiple: true },
  'follow-symlinks': { type: 'boolean', short: 'L' },
  'fail-on': { type: 'string' },
  'on-error': { type: 'string' },
} as const;

const ALGORITHMS: readonly HashAlgorithm[] = ['sha256', 'sha1', 'md5'];

const HELP = `Usage: hashscan-sms scan [options] <path…>

Hashes every file under the given files and folders (recursively, each file
read once) and looks the hashes up, repeated contents asked once. Each file is
reported with its verdict (malicious, not_detected, error) and decision
(block, allow, review). Unreadable files are reported as review, never skipped
in silence. Symbolic links below the named paths are not followed unless -L.

Scanning:
  -a, --algorithm ALG   sha256 (default), sha1 or md5; repeat for several digests
                        from one read (the first is looked up), e.g. -a sha256 -a md5
  -L, --follow-symlinks follow symbolic links (loops are detected and reported)
  --hash-concurrency N  files read at once (default 8)

${verdictHelp({ key: 'path', when: 'every row' })}
${REDIS_HELP}

Examples:
  hashscan-sms scan --sandbox ./examples
  HASHSCAN_API_KEY=… HASHSCAN_BASE_URL=https://… hashscan-sms scan /srv/uploads
  hashscan-sms scan -f ndjson -a sha256 -a md5 /srv/uploads > report.ndjson
  hashscan-sms scan -f csv --fail-on block /srv/uploads > report.csv || alert`;

/**
 * A named path that does not exist is a mistake on the command line (a typo, a wrong folder): a usage
 * error (exit 64) before anything is sent, not a `review` row. One that exists but cannot be read
 * (permissions, a dangling link) stays a `review` row, as below it.
 */
async function refuseMissing(paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    try {
      await lstat(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        throw new UsageError(`scan: no such file or folder: ${path}\nRun \`hashscan-sms scan --help\` for usage.`);
      }
    }
  }
}

export const scanCommand: Command = {
  name: 'scan',
  help: HELP,
  async run(argv, { io, signal }) {
    const { values, positionals } = parseFlags(argv, OPTIONS, 'scan');
    if (positionals.length === 0)
      throw new UsageError('scan: name at least one file or folder\nRun `hashscan-sms scan --help` for usage.');
    await refuseMissing(positionals);
    const format = oneOf(values.format, FORMATS, 'format', 'table');
    const failOn = oneOf(values['fail-on'], ['review', 'block'] as const, 'fail-on', 'review');
    const policy = { onError: oneOf(values['on-error'], ['review', 'block'] as const, 'on-error', 'review') };
    const algorithms = [...new Set((values.algorithm ?? ['sha256']).flatMap((a) => a.split(',')))].map((a) =>
      oneOf(a.trim().toLowerCase(), ALGORITHMS, 'algorithm', 'sha256'),
    );
    const primary = algorithms[0] as HashAlgorithm;
    const pinned = flagNumber(values.concurrency, 'concurrency', { min: 1, max: 1024 });
    const hashConcurrency = flagNumber(values['hash-concurrency'], 'hash-concurrency', { min: 1, max: 1024 }) ?? 8;
    const diagnostics = new Diagnostics(io, new SecretMask(), values.verbose === true);
    const workers = flagNumber(values.workers, 'workers', { min: 1, max: 64 }) ?? 1;

    const columns: Column[] = [
      { key: 'decision', width: 8 },
      { key: 'verdict', width: 12 },
      ...algorithms.map((algorithm) => ({ key: algorithm, width: format === 'table' ? 16 : 0 })),
      { key: 'size', width: 10 },
      { key: 'detail', width: 28 },
      { key: 'path', width: 0 },
    ];
    // Every field, in the order CSV, NDJSON and JSON all give them (the exact name beside the name).
    const csvColumns: Column[] = [
      ...columns,
      { key: 'pathBase64', width: 0 },
      { key: 'source', width: 0 },
      { key: 'error', width: 0 },
      ...TIME_COLUMNS,
    ];
    const writer = createWriter(format, format === 'table' ? columns : csvColumns, io.out, io.env, {
      wide: values.wide === true,
    });
    const progress = new Progress(io.err, io.err.isTTY === true && values.quiet !== true, true);
    const lookups = await prepareLookups({ flags: values, pinned, workers }, diagnostics, progress).catch(
      (error: unknown) => {
        progress.stop();
        throw error;
      },
    );
    const tally: DecisionTally = { allow: 0, block: 0, review: 0 };
    let skipped = 0;
    const emit = (row: Row): void => {
      progress.clear();
      writer.write(row);
      tally[row.decision as keyof DecisionTally] += 1;
    };
    const unreadable = (path: Buffer, code: string, message: string): void => {
      progress.counters.errors += 1;
      emit({ ...nameCells('path', path), ...errorCells({ code, message }, decide({ verdict: 'error' }, policy)) });
    };

    const files = walk(positionals, {
      followSymlinks: values['follow-symlinks'] === true,
      signal,
      onProblem: (problem) => {
        if (problem.kind === 'unreadable') {
          const code = problem.error?.code ?? 'UNREADABLE';
          unreadable(problem.path, code, problem.error?.message ?? 'cannot be read');
          return;
        }
        skipped += 1;
        if (problem.kind === 'loop') {
          progress.clear();
          diagnostics.line(
            `hashscan-sms: skipped ${shownName(problem.path)}: directory already visited (symbolic link loop)`,
          );
        } else if (problem.kind === 'alias') {
          // Not a loop: the same directory by another name (`libtsan2 -> gcc-12-base`), its files reported once.
          progress.clear();
          const via = problem.first === undefined ? 'another path' : shownName(problem.first);
          diagnostics.line(`hashscan-sms: skipped ${shownName(problem.path)}: already scanned via ${via}`);
        } else if (values.verbose === true) {
          progress.clear();
          const why = problem.kind === 'symlink' ? 'symbolic link not followed (use -L)' : 'not a regular file';
          diagnostics.line(`hashscan-sms: skipped ${shownName(problem.path)}: ${why}`);
        }
      },
    });
    // Once the walk has ended, the files still to look up are known: the progress line gets its ETA.
    let walked = 0;
    let unhashable = 0;
    let walkEnded = false;
    const updateTotal = (): void => {
      if (walkEnded) progress.counters.total = walked - unhashable;
    };
    async function* counted(): AsyncGenerator<Buffer, void, undefined> {
      for await (const path of files) {
        walked += 1;
        yield path;
      }
      walkEnded = true;
      updateTotal();
    }
    async function* hashed(): AsyncGenerator<readonly HashedFile<HashAlgorithm, Buffer>[], void, undefined> {
      for await (const file of hashFilesOffThread(counted(), { algorithms, concurrency: hashConcurrency, signal })) {
        if (file.error !== undefined) {
          unhashable += 1;
          updateTotal();
          unreadable(file.path, file.error.code ?? 'UNREADABLE', file.error.message);
          continue;
        }
        progress.counters.hashed += 1;
        yield [file];
      }
    }
    const report = (file: HashedFile<HashAlgorithm, Buffer>, outcome: OutcomeView): void => {
      progress.counters.looked += 1;
      if (outcome.verdict === 'error') progress.counters.errors += 1;
      emit({ ...nameCells('path', file.path), size: file.size, ...file.digests, ...outcomeCells(outcome, policy) });
    };

    try {
      await lookups.run(hashed(), (file) => file.digests[primary], { signal }, report, io.out);
    } finally {
      progress.stop();
      writer.end();
      await lookups.close();
    }
    if (signal.aborted) return 130;
    if (values.quiet !== true) {
      const extra =
        skipped > 0 ? ` (${skipped} skipped: links, loops, directories already scanned or special files)` : '';
      diagnostics.line(`hashscan-sms: ${describeTally(tally, 'file')}${extra}`);
    }
    return exitStatus(tally, failOn);
  },
};
