import type { LineSink } from './coalesce.js';
import type { Column, ResultWriter, Row } from './row.js';

/**
 * The row's fields in the order of `columns` (CSV's), then any others: a
 * field is in the same place in every format.
 */
function inColumnOrder(row: Row, columns: readonly Column[]): Row {
  const entries: [string, string | number][] = [];
  const placed = new Set<string>();
  const place = (key: string): void => {
    const value = Object.hasOwn(row, key) ? row[key] : undefined;
    if (value === undefined || placed.has(key)) return;
    placed.add(key);
    entries.push([key, value]);
  };
  for (const { key } of columns) place(key);
  for (const key of Object.keys(row)) place(key);
  // `fromEntries` defines each field as its own (a key `__proto__` too).
  return Object.fromEntries(entries);
}

/** One JSON object per line, written as each result arrives (`jq -c`, log shippers). */
export function ndjsonWriter(out: LineSink, columns: readonly Column[] = []): ResultWriter {
  return {
    write: (row: Row, written?: () => void) => {
      out.write(`${JSON.stringify(inColumnOrder(row, columns))}\n`, written);
    },
    end: () => {},
  };
}

/** One JSON array, streamed element by element so memory stays flat on huge runs. */
export function jsonWriter(out: LineSink, columns: readonly Column[] = []): ResultWriter {
  let first = true;
  return {
    write: (row: Row, written?: () => void) => {
      out.write(`${first ? '[\n' : ',\n'}  ${JSON.stringify(inColumnOrder(row, columns))}`, written);
      first = false;
    },
    end: () => {
      out.write(first ? '[]\n' : '\n]\n');
    },
  };
}
