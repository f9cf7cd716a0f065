import { lstat } from 'node:fs/promises';
import type { Decision, HashAlgorithm } from '../../index.js';
import { decide } from '../../index.js';
import { SecretMask } from '../../secrets/secret-mask.js';
import { CONNECTION_OPTIONS, type Command, OUTPUT_OPTIONS, oneOf, parseFlags } from '../command.js';
import { flagNumber } from '../config.js';
import { hashFilesOffThread } from '../hashing/hash-off-thread.js';
import { INVENTORY_OPTIONS, inventoryOptions, reportGone } from '../inventory/flags.js';
import { InventoryRun, type Plan, type Settled } from '../inventory/inventory-run.js';
import { BatchChannel, mergeBatches } from '../inventory/merge-batches.js';
import { reportGoneObjects } from '../inventory/objects/gone-objects.js';
import { ObjectInventoryRun } from '../inventory/objects/object-run.js';
import { COL } from '../inventory/schema.js';
import type { FileIdentity } from '../inventory/store.js';
import { isNewBlock } from '../inventory/transition.js';
import { unchangedRow } from '../inventory/unchanged-row.js';
import { backpressure, Diagnostics, flushed } from '../io.js';
import { prepareLookups } from '../lookups/lookups.js';
import { nameCells, nameText, shownName } from '../names.js';
import { type Column, createWriter, FORMATS, type Row } from '../output/index.js';
import { Progress } from '../progress.js';
import { REDIS_OPTION } from '../queue/fleet-flag.js';
import { MAX_LISTED_PATH_BYTES, openPathList, type PathList } from '../scan-input.js';
import { errorCells, type OutcomeView, outcomeCells, TIME_COLUMNS } from '../scan-row.js';
import { entryCells, fileEntry, hashedFile, lookupDigest, type ScanEntry } from '../sources/entry.js';
import { openObjectSource, sortArguments } from '../sources/objects.js';
import { type DecisionTally, describeTally, exitStatus } from '../tally.js';
import { EXIT, UsageError } from '../usage-error.js';
import { type WalkProblem, walk } from '../walk.js';
import { startWalk, worthAThread } from '../walk-thread/walk-off-thread.js';
import { identityOf } from '../walk-thread/wire.js';
import { HELP } from './scan-help.js';

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
  input: { type: 'string', short: 'i' },
  null: { type: 'boolean', short: '0' },
  'fail-on': { type: 'string' },
  'on-error': { type: 'string' },
  'endpoint-url': { type: 'string' },
  ...INVENTORY_OPTIONS,
} as const;

const ALGORITHMS: readonly HashAlgorithm[] = ['sha256', 'sha1', 'md5'];

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
    const listed = values.input !== undefined || values.null === true;
    if (listed && positionals.length > 0)
      throw new UsageError('scan: give paths as arguments or in a list (--input, -0), not both');
    if (!listed && positionals.length === 0)
      throw new UsageError(
        'scan: name at least one file or folder, or a list of them with --input LIST or -0\nRun `hashscan-sms scan --help` for usage.',
      );
    const { paths, objects } = sortArguments(positionals);
    await refuseMissing(paths);
    const format = oneOf(values.format, FORMATS, 'format', 'table');
    const failOn = oneOf(values['fail-on'], ['review', 'block', 'new-block'] as const, 'fail-on', 'review');
    const inventoryFlags = inventoryOptions(values);
    // The inventory reports `gone` below the named roots and locations: a list names neither.
    if (inventoryFlags !== undefined && listed)
      throw new UsageError(
        'scan: --inventory takes folders, files and s3:// locations as arguments, not a list (--input, -0)',
      );
    const policy = { onError: oneOf(values['on-error'], ['review', 'block'] as const, 'on-error', 'review') };
    const algorithms = [...new Set((values.algorithm ?? ['sha256']).flatMap((a) => a.split(',')))].map((a) =>
      oneOf(a.trim().toLowerCase(), ALGORITHMS, 'algorithm', 'sha256'),
    );
    const primary = algorithms[0] as HashAlgorithm;
    const pinned = flagNumber(values.concurrency, 'concurrency', { min: 1, max: 1024 });
    const pinnedHashing = flagNumber(values['hash-concurrency'], 'hash-concurrency', { min: 1, max: 1024 });
    const hashConcurrency = pinnedHashing ?? 8;
    const diagnostics = new Diagnostics(io, new SecretMask(), values.verbose === true);
    const workers = flagNumber(values.workers, 'workers', { min: 1, max: 64 }) ?? 1;
    const source = await openObjectSource(objects, values['endpoint-url'], io.env, inventoryFlags !== undefined);
    // A store keeps a SHA-256 or an MD5: both get a column when an object is scanned, and a download computes both.
    const digestColumns: HashAlgorithm[] =
      source === undefined ? [...algorithms] : [...new Set<HashAlgorithm>([...algorithms, 'sha256', 'md5'])];
    // Opened before anything else: a list that cannot be read is a usage error with nothing sent.
    const list: PathList | undefined = listed
      ? await openPathList({ input: values.input, nul: values.null === true }, io, {
          overlong: (start, length) => {
            progress.counters.errors += 1;
            const message = `a listed entry of ${length} bytes, more than ${MAX_LISTED_PATH_BYTES}: not a path, not opened`;
            const cells = errorCells({ code: 'NAME_TOO_LONG', message }, decide({ verdict: 'error' }, policy));
            emit({ path: `${nameText(start.subarray(0, 80))}…`, ...cells });
          },
        })
      : undefined;

    const columns: Column[] = [
      { key: 'decision', width: 8 },
      ...(inventoryFlags === undefined ? [] : [{ key: 'change', width: 9 }]),
      { key: 'verdict', width: 12 },
      ...digestColumns.map((algorithm) => ({ key: algorithm, width: format === 'table' ? 16 : 0 })),
      { key: 'size', width: 10 },
      ...(source === undefined ? [] : [{ key: 'digestSource', width: 15 }]),
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
    // With an inventory, the walk and its `stat`s start now, on a thread of their own, while the rows load.
    const walker =
      inventoryFlags === undefined || paths.length === 0
        ? undefined
        : startWalk(
            paths,
            values['follow-symlinks'] === true,
            worthAThread(inventoryFlags.path) ? {} : { threadFile: undefined },
          );
    const progress = new Progress(io.err, io.err.isTTY === true && values.quiet !== true, true);
    // What a failure before the run undoes: the walk, the object source, and whatever else was opened by then.
    const abandon = async (error: unknown, ...opened: Array<{ close(): unknown } | undefined>): Promise<never> => {
      progress.stop();
      walker?.close();
      source?.close();
      for (const each of opened) await each?.close();
      throw error;
    };
    // The connection before the inventory: a missing key or a bad flag is a usage error that creates no inventory file.
    const lookups = await prepareLookups({ flags: values, pinned, workers }, diagnostics, progress).catch(
      (error: unknown) => abandon(error),
    );
    const run =
      inventoryFlags === undefined
        ? undefined
        : await InventoryRun.open(inventoryFlags.path, {
            roots: paths,
            algorithms,
            maxAgeMs: inventoryFlags.maxAgeMs,
          }).catch((error: unknown) => abandon(error, lookups));
    // Objects have their own table in the same file, their answers pooled with the files'.
    const objectRun =
      run && source && inventoryFlags
        ? await ObjectInventoryRun.open(inventoryFlags.path, {
            locations: source.locations,
            primary,
            answers: run,
          }).catch((error: unknown) => abandon(error, run, lookups))
        : undefined;
    const writer = createWriter(format, format === 'table' ? columns : csvColumns, io.out, io.env, {
      wide: values.wide === true,
    });
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
    const unreadable = (path: Buffer | string, code: string, message: string): void => {
      progress.counters.errors += 1;
      const decision = decide({ verdict: 'error' }, policy);
      const cells = typeof path === 'string' ? objectRun?.unreadable(path, decision) : run?.unreadable(path, decision);
      emit(
        { ...nameCells('path', path), ...errorCells({ code, message }, decision) },
        cells && { cells, record: () => {} },
      );
    };

    // Once the walk has ended, the files still to look up are known: the progress line gets its ETA.
    let walked = 0;
    let unhashable = 0;
    let walkEnded = false;
    // The walk reached its end: a recorded file it did not meet is gone.
    let walkComplete = false;
    let offered: { readonly path: Buffer; readonly plan: Plan } | undefined; // the plan of the file about to be yielded
    const walkOptions = {
      signal,
      pause: () => backpressure(io.out, signal),
      onProblem,
    };
    // A file as it was with a fresh answer is reported from the walk.
    const claim = (run: InventoryRun, path: Buffer, identity: FileIdentity | undefined): boolean => {
      const plan = run.plan(path, identity);
      if (plan.kind !== 'unchanged') {
        offered = { path, plan };
        return false;
      }
      walked += 1;
      progress.counters.hashed += 1;
      progress.counters.looked += 1;
      progress.clear();
      tally[plan.row[COL.decision]] += 1;
      changes.unchanged += 1;
      if (inventoryFlags?.changesOnly !== true) writer.write(unchangedRow(path, plan.row, algorithms));
      return true;
    };
    function onProblem(problem: WalkProblem): void {
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
    }
    const files =
      run === undefined || walker === undefined
        ? walk(list?.paths ?? paths, { ...walkOptions, followSymlinks: values['follow-symlinks'] === true })
        : walker.files({ ...walkOptions, claim: (path, identity) => claim(run, path, identity) });
    const updateTotal = (): void => {
      if (walkEnded) progress.counters.total = walked - unhashable;
    };
    // With an inventory, a file whose identity is the recorded one goes to the lookups unread.
    const known = new BatchChannel<ScanEntry>();
    async function* counted(): AsyncGenerator<Buffer, void, undefined> {
      try {
        for await (const path of files) {
          walked += 1;
          const plan = offered?.path === path ? offered.plan : run?.plan(path, identityOf(path));
          offered = undefined;
          if (plan?.kind === 'known') {
            progress.counters.hashed += 1;
            const entry = fileEntry(plan.file);
            // An answer young enough: reported here, without a trip through the lookup stage.
            const answer = fresh(entry);
            if (answer === undefined) known.push(entry);
            else report(entry, answer.outcome, answer.at);
          } else yield path;
        }
        walkComplete = !signal.aborted;
        // With objects still to list, the total is not known yet.
        walkEnded = source === undefined && walkComplete;
        updateTotal();
      } finally {
        known.end();
      }
    }
    async function* entries(): AsyncGenerator<readonly ScanEntry[], void, undefined> {
      for await (const file of hashFilesOffThread(counted(), { algorithms, concurrency: hashConcurrency, signal })) {
        if (file.error !== undefined) {
          unhashable += 1;
          updateTotal();
          unreadable(file.path, file.error.code ?? 'UNREADABLE', file.error.message);
          continue;
        }
        progress.counters.hashed += 1;
        yield [fileEntry(file)];
      }
      const concurrency = pinnedHashing ?? 16;
      const results = source?.results({ algorithms: digestColumns, concurrency, signal, recall: objectRun }) ?? [];
      for await (const result of results) {
        if ('problem' in result) {
          unreadable(result.problem.name, result.problem.code, result.problem.message);
          continue;
        }
        progress.counters.hashed += 1;
        yield [result.entry];
      }
    }
    const report = (entry: ScanEntry, outcome: OutcomeView, at = Date.now()): void => {
      progress.counters.looked += 1;
      if (outcome.verdict === 'error') progress.counters.errors += 1;
      const cells = outcomeCells(outcome, policy, at);
      const decision = cells.decision as Decision;
      const settled =
        entry.kind === 'file'
          ? run?.settle(hashedFile(entry), outcome, decision, at)
          : objectRun?.settle(entry, outcome, decision, at);
      emit({ ...entryCells(entry), ...cells }, settled);
    };
    // A hash with an answer younger than --max-age is not asked again.
    const fresh = (entry: ScanEntry) => {
      const digest = lookupDigest(entry, primary);
      return digest === undefined ? undefined : run?.freshAnswer(digest);
    };
    const items = run === undefined ? entries() : mergeBatches(entries(), known);

    try {
      await lookups.run(
        items,
        (entry) => (fresh(entry) === undefined ? lookupDigest(entry, primary) : undefined),
        {
          signal,
          unlooked: (entry) => {
            const answer = fresh(entry);
            if (answer !== undefined) report(entry, answer.outcome, answer.at);
          },
        },
        report,
        io.out,
      );
      if (run !== undefined && walkComplete && !signal.aborted) changes.gone = reportGone(run, writer);
      // Only below locations listed to their end: a listing cut short marks nothing under it gone.
      if (objectRun !== undefined && !signal.aborted) changes.gone += reportGoneObjects(objectRun, writer);
    } finally {
      progress.stop();
      writer.end();
      // A walk whose files were not all taken (a failure, a stop) ends its thread here, not at the process's exit.
      walker?.close();
      source?.close();
      // Every row handed to stdout is recorded (its callback) before the inventory closes, as `--resume` does.
      await flushed(io.out);
      objectRun?.close();
      run?.close();
      await lookups.close();
    }
    if (signal.aborted) return 130;
    if (list !== undefined && list.count() === 0)
      diagnostics.line(`hashscan-sms: ${list.what} named no paths: nothing scanned`);
    if (values.quiet !== true) {
      const extra =
        skipped > 0 ? ` (${skipped} skipped: links, loops, directories already scanned or special files)` : '';
      const noun = paths.length === 0 ? 'object' : 'file';
      const changed =
        run === undefined
          ? ''
          : `; ${Object.entries(changes)
              .map(([change, count]) => `${count} ${change}`)
              .join(', ')}`;
      diagnostics.line(`hashscan-sms: ${describeTally(tally, noun)}${changed}${extra}`);
      if (source !== undefined) diagnostics.line(`hashscan-sms: s3: ${source.describe()}`);
    }
    if (failOn === 'new-block' && newBlocks > 0) return EXIT.newBlock;
    // A listing cut short leaves objects unreported: never an exit 0, even with --fail-on block.
    const status = exitStatus(tally, failOn === 'block' ? 'block' : 'review');
    return (source?.coverage.listingsCut ?? 0) > 0 && status === EXIT.ok ? EXIT.review : status;
  },
};
