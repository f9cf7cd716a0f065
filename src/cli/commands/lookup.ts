import { decide } from '../../index.js';
import { SecretMask } from '../../secrets/secret-mask.js';
import { CONNECTION_OPTIONS, type Command, OUTPUT_OPTIONS, oneOf, parseFlags, verdictHelp } from '../command.js';
import { flagNumber } from '../config.js';
import type { HashLine } from '../hash-lines.js';
import { Diagnostics, flushed } from '../io.js';
import { LOOKUP_COLUMNS, LOOKUP_CSV_COLUMNS } from '../lookup-columns.js';
import { openLookupInput, resumeOptions, staleNote } from '../lookup-input.js';
import { prepareLookups } from '../lookups/lookups.js';
import { InputOrder, ORDER_WINDOW } from '../lookups/result-order.js';
import { nameCells } from '../names.js';
import { createWriter, FORMATS, type Row } from '../output/index.js';
import { Progress } from '../progress.js';
import { REDIS_HELP, REDIS_OPTION } from '../queue/fleet-flag.js';
import { QUEUE_HELP, QUEUE_OPTIONS, queuedLookup } from '../queue/lookup-flags.js';
import { errorCells, type OutcomeView, outcomeCells } from '../scan-row.js';
import { type DecisionTally, describeTally, exitStatus } from '../tally.js';
import { UsageError } from '../usage-error.js';

const OPTIONS = {
  ...OUTPUT_OPTIONS,
  ...CONNECTION_OPTIONS,
  ...REDIS_OPTION,
  ...QUEUE_OPTIONS,
  'api-key': { type: 'string' },
  concurrency: { type: 'string' },
  workers: { type: 'string' },
  input: { type: 'string', short: 'i' },
  null: { type: 'boolean', short: '0' },
  resume: { type: 'string' },
  'fail-on': { type: 'string' },
  'on-error': { type: 'string' },
  order: { type: 'string' },
} as const;

const HELP = `Usage: hashscan-sms lookup [options] [hash…]
       hashscan-sms lookup [options] --input FILE
       … | hashscan-sms lookup [options]

Looks up MD5, SHA-1 or SHA-256 hex digests given as arguments, in a file or on
stdin (one per line). Blank lines and # comments are skipped; \`sha256sum\`
output (\`<hash>  <name>\`) works as is, names it escaped (a leading \\) included.
An invalid line is reported with its line number (as review): one that is not a
hash, holds a second hash, or a carriage return inside it. Empty input is said
so on stderr (exit 0). Lines stream through: ten million lines in flat memory.

Input:
  -i, --input FILE      read hashes from FILE (\`-\` for stdin)
  -0, --null            lines end with NUL, not newline (\`sha256sum -z\`): a name
                        may then hold a newline or a CR (with --queue too)
  --resume STATE        checkpoint in STATE (and STATE.journal): a rerun with the
                        same input and STATE skips what was answered and asks again
                        only what was not (failed lookups included)
  --max-age D           with --resume: a line answered longer ago than D (90s, 15m,
                        12h, 7d) is asked again, its old answer neither printed nor
                        counted (default 12h)

Order:
  --order input|completion
                        results in input order (default: a slow lookup holds back
                        the results after it), or each as it ends

${verdictHelp({ key: 'name', when: 'the name after the hash on a `sha256sum` line' })}
${REDIS_HELP}

${QUEUE_HELP}

Examples:
  hashscan-sms lookup --sandbox 275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f
  hashscan-sms lookup -i stored-hashes.txt -f ndjson --resume run.state > results.ndjson
  sha256sum /srv/uploads/* | hashscan-sms lookup -f csv > report.csv`;

export const lookupCommand: Command = {
  name: 'lookup',
  help: HELP,
  async run(argv, { io, signal }) {
    const { values, positionals } = parseFlags(argv, OPTIONS, 'lookup');
    if (positionals.length > 0 && values.input !== undefined) {
      throw new UsageError('lookup: give hashes as arguments or with --input, not both');
    }
    const nul = values.null === true;
    if (nul && positionals.length > 0) throw new UsageError('lookup: -0 reads --input FILE or stdin, not arguments');
    const format = oneOf(values.format, FORMATS, 'format', 'table');
    const failOn = oneOf(values['fail-on'], ['review', 'block'] as const, 'fail-on', 'review');
    const policy = { onError: oneOf(values['on-error'], ['review', 'block'] as const, 'on-error', 'review') };
    const order = oneOf(values.order, ['input', 'completion'] as const, 'order', 'input');
    if (values.queue !== undefined) {
      if (order === 'completion')
        throw new UsageError('lookup: --queue prints in input order; --order completion is for a local run');
      return queuedLookup(values, positionals, { format, failOn, policy }, { io, signal });
    }
    const queueOnly = (['run-id', 'chunk-size', 'redis-wait'] as const).find((flag) => values[flag] !== undefined);
    if (queueOnly !== undefined) throw new UsageError(`lookup: --${queueOnly} applies to --queue URL`);
    const pinned = flagNumber(values.concurrency, 'concurrency', { min: 1, max: 1024 });
    const workers = flagNumber(values.workers, 'workers', { min: 1, max: 64 }) ?? 1;
    const progress = new Progress(io.err, io.err.isTTY === true && values.quiet !== true, false);

    const resume = resumeOptions(values.resume, values['max-age'], Date.now());
    const diagnostics = new Diagnostics(io, new SecretMask(), values.verbose === true);
    // The connection before the input: a missing key or a bad flag is a usage error that creates no state file.
    const lookups = await prepareLookups({ flags: values, pinned, workers }, diagnostics, progress).catch(
      (error: unknown) => {
        progress.stop();
        throw error;
      },
    );
    const input = await openLookupInput(positionals, values.input, resume, io, progress, nul ? 'nul' : 'text').catch(
      async (error: unknown) => {
        progress.stop();
        await lookups.close();
        throw error;
      },
    );
    const { lines, state, readSoFar } = input;
    const stale = resume === undefined ? undefined : staleNote(resume.path, state, resume.freshness.maxAgeMs);
    // Results not kept in the state file (all of them without --resume).
    const own: DecisionTally = { allow: 0, block: 0, review: 0 };
    if (stale !== undefined && values.quiet !== true) diagnostics.line(stale);
    const writer = createWriter(format, format === 'table' ? LOOKUP_COLUMNS : LOOKUP_CSV_COLUMNS, io.out, io.env, {
      wide: values.wide === true,
    });

    const emit = (line: HashLine, cells: Row, settled: boolean): void => {
      const decision = cells.decision as keyof DecisionTally;
      progress.clear();
      const row = { line: line.line, hash: line.hash, ...(line.name && nameCells('name', line.name)), ...cells };
      if (state !== undefined && settled) {
        const answeredAt = Date.now();
        // Journaled only once printed: a kill in between prints it again on resume, never loses it.
        writer.write(row, () => state.record(line.line, decision, answeredAt, readSoFar));
      } else {
        writer.write(row);
        own[decision] += 1;
      }
    };
    const report = (line: HashLine, outcome: OutcomeView): void => {
      progress.counters.looked += 1;
      if (outcome.verdict === 'error') progress.counters.errors += 1;
      // A failed lookup stays unsettled, so a resumed run asks again; an invalid line would fail the same way.
      emit(line, outcomeCells(outcome, policy), outcome.verdict !== 'error' || outcome.error.code === 'INVALID_HASH');
    };
    // A line that is not one hash (over-long, a second hash, a CR inside, a bad escape): its own row, never looked up.
    const invalid = (line: HashLine): void => {
      progress.counters.looked += 1;
      progress.counters.errors += 1;
      const problem = line.invalid ?? { code: 'INVALID_LINE', message: `line ${line.line} is not a hash line` };
      emit(line, errorCells(problem, decide({ verdict: 'error' }, policy)), true);
    };

    try {
      await lookups.run(
        lines,
        (line) => (line.invalid === undefined ? line.hash : undefined),
        { signal, unlooked: invalid, ...(order === 'input' ? { order: new InputOrder(ORDER_WINDOW) } : {}) },
        report,
        io.out,
      );
    } finally {
      progress.stop();
      writer.end();
      // Even once stopped: every row handed to stdout is journaled (its callback) before the journal
      // closes. A reader that stopped reading holds this wait; the process's stop grace ends it then.
      await flushed(io.out);
      state?.close();
      await lookups.close();
    }
    if (signal.aborted) return 130;
    const earlier = state?.counts ?? { allow: 0, block: 0, review: 0 };
    const tally: DecisionTally = {
      allow: earlier.allow + own.allow,
      block: earlier.block + own.block,
      review: earlier.review + own.review,
    };
    // Said even with --quiet: an empty list is most often an upstream step that failed.
    if (input.count() === 0)
      diagnostics.line(
        'hashscan-sms: the input held no hashes (empty, or blank lines and comments only): nothing looked up',
      );
    if (values.quiet !== true) diagnostics.line(`hashscan-sms: ${describeTally(tally, 'hash')}`);
    return exitStatus(tally, failOn);
  },
};
