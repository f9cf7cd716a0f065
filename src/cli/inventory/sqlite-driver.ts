/**
 * The SQLite driver of `--inventory`: Node's own `node:sqlite` where the
 * runtime has it unflagged (Node 22.13 and later), else the optional peer
 * better-sqlite3 12 (Node 20). Both answer the few calls below the same way;
 * better-sqlite3 is loaded only when `--inventory` runs, from the user's
 * node_modules (the CLI bundle leaves it out, as it does bullmq).
 */
import { UsageError } from '../usage-error.js';

/** A value bound to or read from a statement. */
type SqlValue = string | number | bigint | null | Uint8Array;

/** A prepared statement: the calls both drivers share. */
interface SqliteStatement {
  run(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
  /** better-sqlite3: rows as arrays of their values. */
  raw?(toggle: boolean): unknown;
  /** node:sqlite (Node 22.16, 24): rows as arrays of their values. */
  setReturnArrays?(toggle: boolean): unknown;
}

/** An open database: the calls both drivers share. */
export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** Which driver opened a database. */
export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

type Open = (path: string) => SqliteDatabase;

/** Where each driver comes from (tests and the bench pass their own). */
export interface SqliteLoaders {
  /** `node:sqlite`'s opener, or `undefined` where the runtime has none (Node 20, or 22 before 22.13 without a flag). */
  readonly builtin: () => Open | undefined;
  /** better-sqlite3's opener; rejects when the package is not installed. */
  readonly betterSqlite3: () => Promise<Open>;
}

/** The ExperimentalWarning Node prints once when `node:sqlite` loads: noise on a command's stderr. */
const SQLITE_WARNING = /SQLite is an experimental feature/;

function builtinSqlite(): Open | undefined {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (get === undefined) return undefined;
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (!SQLITE_WARNING.test(text)) (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    const module = get.call(process, 'node:sqlite') as
      | { DatabaseSync?: new (path: string) => SqliteDatabase }
      | undefined;
    const DatabaseSync = module?.DatabaseSync;
    return DatabaseSync === undefined ? undefined : (path) => new DatabaseSync(path);
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

async function betterSqlite3(): Promise<Open> {
  const { default: Database } = await import('better-sqlite3');
  return (path) => new Database(path) as unknown as SqliteDatabase;
}

/** The drivers of this runtime. */
const RUNTIME_SQLITE: SqliteLoaders = { builtin: builtinSqlite, betterSqlite3 };

/** The message when neither driver is there. */
function noDriver(): UsageError {
  return new UsageError(
    `--inventory needs SQLite: Node 22.13 or later has it built in (node:sqlite); on Node ${process.versions.node} ` +
      'install the optional package better-sqlite3 12: npm install better-sqlite3@12',
  );
}

/**
 * The driver to open inventories with: `node:sqlite` when the runtime has
 * it (no native add-on to build or trust), else better-sqlite3; neither is
 * a usage error (exit 64) that says how to get one.
 */
export async function chooseSqlite(
  loaders: SqliteLoaders = RUNTIME_SQLITE,
): Promise<{ readonly name: SqliteDriverName; readonly open: Open }> {
  const builtin = loaders.builtin();
  if (builtin !== undefined) return { name: 'node:sqlite', open: builtin };
  try {
    return { name: 'better-sqlite3', open: await loaders.betterSqlite3() };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw noDriver();
    // Installed but not loadable here (built for another Node): the same way out, with the cause.
    if (code === 'ERR_DLOPEN_FAILED') {
      throw new UsageError(`${noDriver().message} (the installed one does not load: ${(error as Error).message})`);
    }
    throw error;
  }
}
