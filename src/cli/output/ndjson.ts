import type { LineSink } from './coalesce.js';
import type { Column, ResultWriter, Row } from './row.js';

/**
 * Puts a row's fields in the order of `columns` (CSV's), then any others: a
 * field is in the same place in every format. The column keys are worked
 * out once per writer, not once per row.
 */
function columnOrder(columns: readonly Column[]): (row: Row) => Row {
  const keys = [...new Set(columns.map((column) => column.key))];
  const known = new Set(keys);
  return (row) => {
    const ordered: Record<string, string | number> = {};
    for (const key of keys) {
      const value = Object.hasOwn(row, key) ? row[key] : undefined;
      if (value !== undefined) define(ordered, key, value);
    }
    for (const key of Object.keys(row)) {
      const value = row[key];
      if (value !== undefined && !known.has(key)) define(ordered, key, value);
    }
    return ordered;
  };
}

/** Sets a field as the row's own, a key `__proto__` too (an assignment would set the prototype). */
function define(target: Record<string, string | number>, key: string, value: string | number): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** One JSON object per line, written as each result arrives (`jq -c`, log shippers). */
export function ndjsonWriter(out: LineSink, columns: readonly Column[] = []): ResultWriter {
  const inColumnOrder = columnOrder(columns);
  return {
    write: (row: Row, written?: () => void) => {
      out.write(`${JSON.stringify(inColumnOrder(row))}\n`, written);
    },
    end: () => {},
  };
}

/** One JSON array, streamed element by element so memory stays flat on huge runs. */
export function jsonWriter(out: LineSink, columns: readonly Column[] = []): ResultWriter {
  const inColumnOrder = columnOrder(columns);
  let first = true;
  return {
    write: (row: Row, written?: () => void) => {
      out.write(`${first ? '[\n' : ',\n'}  ${JSON.stringify(inColumnOrder(row))}`, written);
      first = false;
    },
    end: () => {
      out.write(first ? '[]\n' : '\n]\n');
    },
  };
}
