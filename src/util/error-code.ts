/**
 * An error's `code` or `name` only, for log lines and messages: the messages
 * of store and Redis clients may carry connection strings with passwords.
 * Never throws (a hostile getter gives `error`).
 */
export function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return typeof error;
  try {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && /^[\w.-]{1,64}$/.test(code)) return code;
    if (typeof name === 'string' && /^[\w.-]{1,64}$/.test(name)) return name;
  } catch {
    // A hostile getter: say nothing more.
  }
  return 'error';
}
