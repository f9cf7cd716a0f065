import type { LineSink } from './coalesce.js';
import type { Column, ResultWriter, Row } from './row.js';

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a double quote or
 * a line break, with inner quotes doubled. Paths may hold any of these.
 */
export function csvField(value: string | number | undefined): string {
  if (value === undefined) return '';
  const text = typeof value === 'number' ? `${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A header line, then one line per result, CRLF-terminated as RFC 4180 says. */
export function csvWriter(out: LineSink, columns: readonly Column[]): ResultWriter {
  out.write(`${columns.map((column) => csvField(column.key)).join(',')}\r\n`);
  return {
    write: (row: Row, written?: () => void) => {
      out.write(`${columns.map((column) => csvField(row[column.key])).join(',')}\r\n`, written);
    },
    end: () => {},
  };
}
