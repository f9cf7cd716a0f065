import { printable } from '../names.js';
import type { LineSink } from './coalesce.js';
import type { Column, ResultWriter, Row } from './row.js';

const COLORS: Readonly<Record<string, string>> = { block: '\u001b[31m', review: '\u001b[33m', allow: '\u001b[32m' };
const RESET = '\u001b[0m';

function fitCell(text: string, width: number, cut: boolean): string {
  if (width === 0) return text;
  if (text.length > width && cut) return `${text.slice(0, width - 1)}…`;
  return text.padEnd(width);
}

/**
 * Aligned columns for people, streamed: widths are fixed up front, so rows
 * print as they arrive instead of after the whole run. Control characters
 * in a cell (a file name can hold them) are shown escaped, never sent to the
 * terminal. `cut`: cells longer than their column are cut to it (`…`), but
 * for `whole` columns; else they are kept whole, and the row runs longer.
 */
export function tableWriter(out: LineSink, columns: readonly Column[], color: boolean, cut = true): ResultWriter {
  out.write(`${columns.map((column) => fitCell(column.key.toUpperCase(), column.width, cut)).join('  ')}\n`);
  return {
    write: (row: Row, written?: () => void) => {
      const cells = columns.map((column) => {
        const cell = fitCell(printable(row[column.key]), column.width, cut && column.whole !== true);
        const paint = color && column.key === 'decision' ? COLORS[String(row.decision)] : undefined;
        return paint === undefined ? cell : `${paint}${cell}${RESET}`;
      });
      out.write(`${cells.join('  ').trimEnd()}\n`, written);
    },
    end: () => {},
  };
}

export { printable };
