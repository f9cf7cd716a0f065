/**
 * Result lines gathered into one write per turn of the event loop (or per
 * 64 KiB), rather than one per line. stdout redirected to a file is written
 * synchronously, a system call per `write()`: 20 000 results made 20 000
 * calls. Lines still leave within the same turn they were produced in, so
 * NDJSON keeps streaming as results arrive, and each `written` callback
 * still fires once its line is with the operating system.
 */
const FLUSH_BYTES = 64 * 1024;

/**
 * The part of a stream the writers use: text, and a callback once it is
 * with the operating system. `written` is never called for text that failed
 * (a closed pipe): the resume journal must not record what was not printed.
 */
export interface LineSink {
  write(text: string, written?: () => void): unknown;
}

/** A stream as a {@link LineSink}: `written` only on success. */
export function streamSink(out: NodeJS.WritableStream): LineSink {
  return {
    write: (text, written) =>
      out.write(
        text,
        written === undefined
          ? undefined
          : (error?: Error | null) => {
              if (error === undefined || error === null) written();
            },
      ),
  };
}

/** A sink that batches into `out`; `flush()` sends what is pending now (the writers' `end()` calls it). */
export function coalescing(out: NodeJS.WritableStream | LineSink): LineSink & { flush(): void } {
  let pending: string[] = [];
  let size = 0;
  let callbacks: (() => void)[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    const done = callbacks;
    pending = [];
    size = 0;
    callbacks = [];
    const written = (error?: Error | null): void => {
      if (error !== undefined && error !== null) return;
      for (const callback of done) callback();
    };
    out.write(text, done.length === 0 ? undefined : written);
  };
  const write = (text: string, written?: () => void): boolean => {
    pending.push(text);
    size += text.length;
    if (written !== undefined) callbacks.push(written);
    if (size >= FLUSH_BYTES) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
    return true;
  };
  return { write, flush };
}
