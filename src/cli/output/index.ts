import { coalescing, type LineSink, streamSink } from './coalesce.js';
import { csvWriter } from './csv.js';
import { jsonWriter, ndjsonWriter } from './ndjson.js';
import type { Column, Format, ResultWriter } from './row.js';
import { tableWriter } from './table.js';

export { type Column, FORMATS, type Format, type ResultWriter, type Row } from './row.js';

/** How the table is laid out. */
export interface WriterOptions {
  /** `--wide`: the table cuts no cell, even on a terminal. @defaultValue false */
  readonly wide?: boolean;
}

/**
 * The writer of a `--format`. The table cuts cells to its columns only on a
 * terminal (and not `--wide`): a table read by a program or kept in a file
 * holds whole digests.
 */
export function createWriter(
  format: Format,
  columns: readonly Column[],
  out: NodeJS.WritableStream & { readonly isTTY?: boolean },
  env: NodeJS.ProcessEnv,
  options: WriterOptions = {},
): ResultWriter {
  // On a terminal each row shows at once, between redraws of the progress line on stderr.
  if (out.isTTY === true) {
    return formatWriter(format, columns, streamSink(out), env.NO_COLOR === undefined, options.wide !== true);
  }
  const sink = coalescing(out);
  const writer = formatWriter(format, columns, sink, false, false);
  return {
    write: (row, written) => writer.write(row, written),
    end: () => {
      writer.end();
      sink.flush();
    },
  };
}

function formatWriter(
  format: Format,
  columns: readonly Column[],
  out: LineSink,
  color: boolean,
  cut: boolean,
): ResultWriter {
  switch (format) {
    case 'ndjson':
      return ndjsonWriter(out, columns);
    case 'json':
      return jsonWriter(out, columns);
    case 'csv':
      return csvWriter(out, columns);
    case 'table':
      return tableWriter(out, columns, color, cut);
  }
}
