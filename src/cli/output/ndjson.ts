import type { LineSink } from './coalesce.js';
import type { Column, ResultWriter, Row } from './row.js';

/**
 * The row as a JSON object, its fields in the order of `columns` (CSV's),
 * then any others: a field is in the same place in every format. Written
 * field by field rather than through an object rebuilt in that order: every
 * result passes here.
 */
function jsonObject(columns: readonly Column[]): (row: Row) => string {
  const keys = [...new Set(columns.map((column) => column.key))];
  const named = new Set(keys);
  const quoted = keys.map((key) => `${JSON.stringify(key)}:`);
  return (row) => {
    let text = '';
    for (let at = 0; at < keys.length; at += 1) {
      const key = keys[at] as string;
      const value = Object.hasOwn(row, key) ? row[key] : undefined;
      if (value !== undefined) text += `,${quoted[at]}${JSON.stringify(value)}`;
    }
    for (const key of Object.keys(row)) {
      const value = row[key];
      if (value !== undefined && !named.has(key)) text += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
    }
    return `{${text.slice(1)}}`;
  };
}

/** One JSON object per line, written as each result arrives (`jq -c`, log shippers). */
export function ndjsonWriter(out: LineSink, columns: readonly Column[] = []): ResultWriter {
  const json = jsonObject(columns);
  return {
    write: (row: Row, written?: () => void) => {
      out.write(`${json(row)}\n`, written);
    },
    end: () => {},
  };
}

/** One JSON array, streamed element by element so memory stays flat on huge runs. */
export function jsonWriter(out: LineSink, columns: readonly Column[] = []): ResultWriter {
  const json = jsonObject(columns);
  let first = true;
  return {
    write: (row: Row, written?: () => void) => {
      out.write(`${first ? '[\n' : ',\n'}  ${json(row)}`, written);
      first = false;
    },
    end: () => {
      out.write(first ? '[]\n' : '\n]\n');
    },
  };
}
