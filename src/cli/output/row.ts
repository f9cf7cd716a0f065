/** One result line, whatever the format: named cells, absent ones left out. */
export type Row = Readonly<Record<string, string | number | undefined>>;

/** A column of the results: its key in {@link Row}, and its width in the human table (`0`: the rest of the line). */
export interface Column {
  readonly key: string;
  readonly width: number;
  /** In a table, pad to `width` but never cut: an id the user must copy whole (an SMS `RequestId`). */
  readonly whole?: boolean;
}

/**
 * Writes results as they arrive; `end()` closes the document (JSON's `]`).
 * `written` is called once the row has been handed to the operating system
 * (stdout to a pipe is asynchronous): the resume journal waits for it.
 */
export interface ResultWriter {
  write(row: Row, written?: () => void): void;
  end(): void;
}

/** The machine formats, and `table` for people. */
export const FORMATS = ['table', 'ndjson', 'csv', 'json'] as const;
export type Format = (typeof FORMATS)[number];
