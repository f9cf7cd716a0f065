/**
 * Warnings about a dangerous configuration, which must reach the user whatever logger is set (the default
 * one is silent): Node's convention, `process.emitWarning` with a code, once per code per process. Where
 * there is no `process` (Workers, a browser), `console.warn` instead. Imports nothing.
 *
 * The codes (documented in docs/operating.md):
 * - `HASHSCAN_SMS_FLEET_OFFLINE_QUEUE`: the `fleet.redis` client queues commands while disconnected.
 */

/** Every warning code the package emits. */
export type WarningCode = 'HASHSCAN_SMS_FLEET_OFFLINE_QUEUE';

/** The `name` of the package's warnings (`process.on('warning', (w) => w.name === 'HashScanSmsWarning')`). */
export const WARNING_NAME = 'HashScanSmsWarning';

/** The codes already emitted in this process, shared by every copy of the package (ESM and CJS builds). */
const EMITTED = Symbol.for('hashscan-sms.warnings-emitted');

/** What the warning needs of the global object. */
interface WarningHost {
  [EMITTED]?: Set<string>;
  readonly process?: { readonly emitWarning?: unknown } | undefined;
  readonly console?: { readonly warn?: unknown } | undefined;
}

/**
 * Emits the warning `code` once per process (later calls with the same code do nothing), through
 * `process.emitWarning(message, { type: 'HashScanSmsWarning', code })`, or `console.warn` without `process`.
 * Never throws: a warning must not fail the construction it warns about.
 */
export function warnOnce(code: WarningCode, message: string, host: object = globalThis): void {
  const global = host as WarningHost;
  try {
    global[EMITTED] ??= new Set();
    const emitted = global[EMITTED];
    if (emitted.has(code)) return;
    emitted.add(code);
    const emitWarning = global.process?.emitWarning;
    if (typeof emitWarning === 'function') {
      emitWarning.call(global.process, message, { type: WARNING_NAME, code });
      return;
    }
    const warn = global.console?.warn;
    if (typeof warn === 'function') warn.call(global.console, `${WARNING_NAME} [${code}]: ${message}`);
  } catch {
    // A frozen global or a throwing console: the warning is lost, the client still works.
  }
}
