import type { LineSink } from './coalesce.js';
import type { ResultWriter, Row } from './row.js';

/** One JSON object per line, written as each result arrives (`jq -c`, log shippers). */
export function ndjsonWriter(out: LineSink): ResultWriter {
  return {
    write: (row: Row, written?: () => void) => {
      out.write(`${JSON.stringify(row)}\n`, written);
    },
    end: () => {},
  };
}

/** One JSON array, streamed element by element so memory stays flat on huge runs. */
export function jsonWriter(out: LineSink): ResultWriter {
  let first = true;
  return {
    write: (row: Row, written?: () => void) => {
      out.write(`${first ? '[\n' : ',\n'}  ${JSON.stringify(row)}`, written);
      first = false;
    },
    end: () => {
      out.write(first ? '[]\n' : '\n]\n');
    },
  };
}
