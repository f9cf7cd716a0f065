import { csvWriter } from './csv.js';
import { jsonWriter, ndjsonWriter } from './ndjson.js';
import type { Column, Format, ResultWriter } from './row.js';
import { tableWriter } from './table.js';

export { type Column, FORMATS, type Format, type ResultWriter, type Row } from './row.js';

/** The writer of a `--format`. */
export function createWriter(
  format: Format,
  columns: readonly Column[],
  out: NodeJS.WritableStream & { readonly isTTY?: boolean },
  env: NodeJS.ProcessEnv,
): ResultWriter {
  switch (format) {
    case 'ndjson':
      return ndjsonWriter(out);
    case 'json':
      return jsonWriter(out);
    case 'csv':
      return csvWriter(out, columns);
    case 'table':
      return tableWriter(out, columns, out.isTTY === true && env.NO_COLOR === undefined);
  }
}
