import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ScanOutcome } from '../../index.js';
import { SecretMask } from '../../secrets/secret-mask.js';
import { CONNECTION_OPTIONS, type Command, OUTPUT_OPTIONS, oneOf, parseFlags, VERDICT_HELP } from '../command.js';
import { connectHashScan, wholeNumber } from '../config.js';
import { type HashLine, openInput, parseHashLine, readHashLines } from '../hash-lines.js';
import { Diagnostics, flushed } from '../io.js';
import { LOOKUP_COLUMNS, LOOKUP_CSV_COLUMNS } from '../lookup-columns.js';
import { lookUpEach } from '../lookup-pipeline.js';
import { createWriter, FORMATS } from '../output/index.js';
import { Progress } from '../progress.js';
import { REDIS_HELP, REDIS_OPTION } from '../queue/fleet-flag.js';
import { QUEUE_HELP, QUEUE_OPTIONS, queuedLookup } from '../queue/lookup-flags.js';
import { type InputIdentity, ResumeState } from '../resume-state.js';
import { outcomeCells } from '../scan-row.js';
import { type DecisionTally, describeTally, exitStatus } from '../tally.js';
import { UsageError } from '../usage-error.js';

const OPTIONS = {
  ...OUTPUT_OPTIONS,
  ...CONNECTION_OPTIONS,
  ...REDIS_OPTION,
  ...QUEUE_OPTIONS,
  'api-key': { type: 'string' },
  concurrency: { type: 'string' },
  input: { type: 'string', short: 'i' },
  resume: { type: 'string' },
  'fail-on': { type: 'string' },
  'on-error': { type: 'string' },
} as const;

const HELP = `Usage: hashscan-sms lookup [options] [hash…]
       hashscan-sms lookup [options] --input FILE
       … | hashscan-sms lookup [options]

Looks up MD5, SHA-1 or SHA-256 hex digests given as arguments, in a file or on
stdin (one per line). Blank lines and # comments are skipped; \`sha256sum\`
output (\`<hash>  <name>\`) works as is. An invalid line is reported with its line
number (as review). Lines stream through: ten million lines run in flat memory.

Input:
  -i, --input FILE      read hashes from FILE (\`-\` for stdin)
  --resume STATE        checkpoint in STATE (and STATE.journal): a rerun with the
                        same input and STATE skips what was answered and asks again
                        only what was not (failed lookups included)

${VERDICT_HELP}
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
    const format = oneOf(values.format, FORMATS, 'format', 'table');
    const failOn = oneOf(values['fail-on'], ['review', 'block'] as const, 'fail-on', 'review');
    const policy = { onError: oneOf(values['on-error'], ['review', 'block'] as const, 'on-error', 'review') };
    if (values.queue !== undefined)
      return queuedLookup(values, positionals, { format, failOn, policy }, { io, signal });
    const concurrency = wholeNumber(values.concurrency, 'concurrency', 1, 1024) ?? 16;
    const progress = new Progress(io.err, io.err.isTTY === true && values.quiet !== true, false);

    // The input: arguments, a file, or stdin.
    let lines: AsyncIterable<HashLine> | Iterable<HashLine>;
    let identity: InputIdentity;
    if (positionals.length > 0) {
      lines = positionals.flatMap((text, i) => parseHashLine(text, i + 1) ?? []);
      identity = { source: 'args', digest: createHash('sha256').update(positionals.join('\n')).digest('hex') };
    } else if (values.input !== undefined && values.input !== '-') {
      const path = resolve(values.input);
      const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
        throw new UsageError(`lookup: cannot read --input ${values.input}: ${error.code ?? error.message}`);
      });
      let read = 0;
      lines = readHashLines(openInput(path), (bytes) => {
        read += bytes;
        progress.counters.fraction = info.size > 0 ? read / info.size : undefined;
      });
      identity = { source: 'file', path, size: info.size, mtimeMs: info.mtimeMs };
    } else {
      if (io.stdin.isTTY === true && values.input === undefined) {
        throw new UsageError(
          'lookup: no hashes: pass them as arguments, with --input FILE, or on stdin\nRun `hashscan-sms lookup --help` for usage.',
        );
      }
      lines = readHashLines(io.stdin);
      identity = { source: 'stdin' };
    }

    const state = values.resume === undefined ? undefined : ResumeState.open(values.resume, identity);
    // Results not kept in the state file (all of them without --resume).
    const own: DecisionTally = { allow: 0, block: 0, review: 0 };
    const diagnostics = new Diagnostics(io, new SecretMask(), values.verbose === true);
    const connection = await connectHashScan(values, concurrency, diagnostics).catch((error: unknown) => {
      state?.close();
      throw error;
    });
    const writer = createWriter(format, format === 'csv' ? LOOKUP_CSV_COLUMNS : LOOKUP_COLUMNS, io.out, io.env);

    async function* unsettled(): AsyncGenerator<HashLine, void, undefined> {
      for await (const line of lines) if (state?.isSettled(line.line) !== true) yield line;
    }
    const report = (line: HashLine, outcome: ScanOutcome): void => {
      const cells = outcomeCells(outcome, policy);
      const decision = cells.decision as keyof DecisionTally;
      progress.counters.looked += 1;
      if (outcome.verdict === 'error') progress.counters.errors += 1;
      progress.clear();
      // A failed lookup stays unsettled, so a resumed run asks again; an invalid line would fail the same way.
      const settled = outcome.verdict !== 'error' || outcome.error.code === 'INVALID_HASH';
      const row = {
        line: line.line,
        hash: line.hash,
        ...(line.name === undefined ? {} : { name: line.name }),
        ...cells,
      };
      if (state !== undefined && settled) {
        // Journaled only once printed: a kill in between prints it again on resume, never loses it.
        writer.write(row, () => state.record(line.line, decision));
      } else {
        writer.write(row);
        own[decision] += 1;
      }
    };

    try {
      await lookUpEach(connection.client, unsettled(), (line) => line.hash, { concurrency, signal }, report, io.out);
    } finally {
      progress.stop();
      writer.end();
      await flushed(io.out);
      state?.close();
      await connection.close();
    }
    if (signal.aborted) return 130;
    const earlier = state?.counts ?? { allow: 0, block: 0, review: 0 };
    const tally: DecisionTally = {
      allow: earlier.allow + own.allow,
      block: earlier.block + own.block,
      review: earlier.review + own.review,
    };
    if (values.quiet !== true) diagnostics.line(`hashscan-sms: ${describeTally(tally, 'hash')}`);
    return exitStatus(tally, failOn);
  },
};
