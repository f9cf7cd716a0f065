import { lstat } from 'node:fs/promises';
import type { Decision, HashAlgorithm, HashedFile } from '../../index.js';
import { decide } from '../../index.js';
import { SecretMask } from '../../secrets/secret-mask.js';
import { CONNECTION_OPTIONS, type Command, OUTPUT_OPTIONS, oneOf, parseFlags, verdictHelp } from '../command.js';
import { flagNumber } from '../config.js';
import { hashFilesOffThread } from '../hashing/hash-off-thread.js';
import { INVENTORY_HELP, INVENTORY_OPTIONS, inventoryOptions, reportGone } from '../inventory/flags.js';
import { InventoryRun, type Settled } from '../inventory/inventory-run.js';
import { BatchChannel, mergeBatches } from '../inventory/merge-batches.js';
import { isNewBlock } from '../inventory/transition.js';
import { Diagnostics, flushed } from '../io.js';
import { prepareLookups } from '../lookups/lookups.js';
import { nameCells, shownName } from '../names.js';
import { type Column, createWriter, FORMATS, type Row } from '../output/index.js';
import { Progress } from '../progress.js';
import { REDIS_HELP, REDIS_OPTION } from '../queue/fleet-flag.js';
import { errorCells, type OutcomeView, outcomeCells, TIME_COLUMNS } from '../scan-row.js';
import { type DecisionTally, describeTally, exitStatus } from '../tally.js';
import { EXIT, UsageError } from '../usage-error.js';
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
  ...INVENTORY_OPTIONS,
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

${INVENTORY_HELP}

${verdictHelp({ key: 'path', when: 'every row' })}
${REDIS_HELP}

Examples:
  hashscan-sms scan --sandbox ./examples
  HASHSCAN_API_KEY=… HASHSCAN_BASE_URL=https://… hashscan-sms scan /srv/uploads
  hashscan-sms scan -f ndjson -a sha256 -a md5 /srv/uploads > report.ndjson
  hashscan-sms scan -f csv --fail-on block /srv/uploads > report.csv || alert
  hashscan-sms scan --inventory /var/lib/hashscan/uploads.db --changes-only --fail-on new-block /srv/uploads`;

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
    const failOn = oneOf(values['fail-on'], ['review', 'block', 'new-block'] as const, 'fail-on', 'review');
    const inventoryFlags = inventoryOptions(values);
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
      ...(inventoryFlags === undefined ? [] : [{ key: 'change', width: 9 }]),
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
      ...(inventoryFlags === undefined ? [] : [{ key: 'previousDecision', width: 0 }]),
      ...TIME_COLUMNS,
    ];
    const run =
      inventoryFlags === undefined
        ? undefined
        : await InventoryRun.open(inventoryFlags.path, {
            roots: positionals,
            algorithms,
            maxAgeMs: inventoryFlags.maxAgeMs,
          });
    const writer = createWriter(format, format === 'table' ? columns : csvColumns, io.out, io.env, {
      wide: values.wide === true,
    });
    const progress = new Progress(io.err, io.err.isTTY === true && values.quiet !== true, true);
    const lookups = await prepareLookups({ flags: values, pinned, workers }, diagnostics, progress).catch(
      (error: unknown) => {
        progress.stop();
        run?.close();
        throw error;
      },
    );
    const tally: DecisionTally = { allow: 0, block: 0, review: 0 };
    let newBlocks = 0;
    const changes = { new: 0, unchanged: 0, modified: 0, verdict: 0, gone: 0 };
    let skipped = 0;
    const emit = (row: Row, settled?: Settled): void => {
      progress.clear();
      tally[row.decision as keyof DecisionTally] += 1;
      if (settled === undefined) {
        writer.write(row);
        return;
      }
      if (isNewBlock(row.decision, settled.cells)) newBlocks += 1;
      changes[settled.cells.change] += 1;
      // The inventory records a file once its row is out: a stop in between reports it again, never loses it.
      if (inventoryFlags?.changesOnly === true && settled.cells.change === 'unchanged') settled.record();
      else writer.write({ ...row, ...settled.cells }, settled.record);
    };
    const unreadable = (path: Buffer, code: string, message: string): void => {
      progress.counters.errors += 1;
      const decision = decide({ verdict: 'error' }, policy);
      const cells = run?.unreadable(path, decision);
      emit(
        { ...nameCells('path', path), ...errorCells({ code, message }, decision) },
        cells && { cells, record: () => {} },
      );
    };

    const files = walk(positionals, {
      followSymlinks: values['follow-symlinks'] === true,
      signal,
      onProblem: (problem) => {
        if (problem.kind === 'unreadable') {
          run?.keep(problem.path);
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
    // With an inventory, a file whose identity is the recorded one goes to the lookups unread.
    const known = new BatchChannel<HashedFile<HashAlgorithm, Buffer>>();
    async function* counted(): AsyncGenerator<Buffer, void, undefined> {
      try {
        for await (const path of files) {
          walked += 1;
          const plan = run?.plan(path);
          if (plan?.kind === 'known') {
            progress.counters.hashed += 1;
            // An answer young enough: reported here, without a trip through the lookup stage.
            const answer = fresh(plan.file);
            if (answer === undefined) known.push(plan.file);
            else report(plan.file, answer.outcome, answer.at);
          } else yield path;
        }
        walkEnded = !signal.aborted;
        updateTotal();
      } finally {
        known.end();
      }
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
    const report = (file: HashedFile<HashAlgorithm, Buffer>, outcome: OutcomeView, at = Date.now()): void => {
      progress.counters.looked += 1;
      if (outcome.verdict === 'error') progress.counters.errors += 1;
      const cells = outcomeCells(outcome, policy, at);
      const settled = run?.settle(file, outcome, cells.decision as Decision, at);
      emit({ ...nameCells('path', file.path), size: file.size, ...file.digests, ...cells }, settled);
    };
    // A hash with an answer younger than --max-age is not asked again.
    const fresh = (file: HashedFile<HashAlgorithm, Buffer>) => run?.freshAnswer(file.digests[primary]);
    const items = run === undefined ? hashed() : mergeBatches(hashed(), known);

    try {
      await lookups.run(
        items,
        (file) => (fresh(file) === undefined ? file.digests[primary] : undefined),
        {
          signal,
          unlooked: (file) => {
            const answer = fresh(file) as NonNullable<ReturnType<typeof fresh>>;
            report(file, answer.outcome, answer.at);
          },
        },
        report,
        io.out,
      );
      if (run !== undefined && walkEnded && !signal.aborted) changes.gone = reportGone(run, writer);
    } finally {
      progress.stop();
      writer.end();
      // Every row handed to stdout is recorded (its callback) before the inventory closes, as `--resume` does.
      await flushed(io.out);
      run?.close();
      await lookups.close();
    }
    if (signal.aborted) return 130;
    if (values.quiet !== true) {
      const extra =
        skipped > 0 ? ` (${skipped} skipped: links, loops, directories already scanned or special files)` : '';
      const changed =
        run === undefined
          ? ''
          : `; ${Object.entries(changes)
              .map(([change, count]) => `${count} ${change}`)
              .join(', ')}`;
      diagnostics.line(`hashscan-sms: ${describeTally(tally, 'file')}${changed}${extra}`);
    }
    if (failOn === 'new-block' && newBlocks > 0) return EXIT.newBlock;
    return exitStatus(tally, failOn === 'block' ? 'block' : 'review');
  },
};
