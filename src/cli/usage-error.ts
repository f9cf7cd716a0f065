/** A command line the CLI cannot run: exit status 64 (`EX_USAGE` of sysexits.h), message on stderr. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Exit statuses of every command. */
export const EXIT = Object.freeze({
  /** Every file or hash allowed (for `sms send`: accepted). */
  ok: 0,
  /** At least one malicious (block); for `sms send`: refused, surely not sent. */
  block: 1,
  /** At least one without a trustworthy answer (review), none malicious; for `sms send`: outcome unknown. */
  review: 2,
  /** `scan --inventory --fail-on new-block`: a block the inventory did not hold as one (new, modified, or flagged since). */
  newBlock: 3,
  /** Bad command line or configuration. */
  usage: 64,
  /** Stopped by Ctrl-C (128 + SIGINT). */
  interrupted: 130,
  /** stdout closed by its reader (`… | head`): 128 + SIGPIPE, as shells report a process killed by it. */
  brokenPipe: 141,
  /** Stopped by SIGTERM (128 + SIGTERM). */
  terminated: 143,
});
