import type { IncomingResponse, Sending } from './wire.js';

/**
 * A sending whose `response` rejects as soon as `abort` is called, even if
 * what sends (a custom `fetch`, say) ignores its signal: an attempt cut short
 * by its time-out or the caller ends then, not whenever the sender notices.
 * The dispatcher path builds its sending this way already; the ky path is
 * wrapped once per attempt.
 */
export function promptly(sending: Sending): Sending {
  let cut: ((error: Error) => void) | undefined;
  const response = new Promise<IncomingResponse>((resolve, reject) => {
    cut = reject;
    sending.response.then(resolve, reject);
  });
  return {
    response,
    abort: (reason) => {
      sending.abort(reason);
      cut?.(new Error('aborted'));
    },
  };
}
