import { SmsError } from '../errors/sms-error.js';
import type { SendOperation } from '../observe/events.js';
import type { CredentialSource } from '../secrets/credentials.js';
import type { Redactor } from '../secrets/redact.js';
import type { SecretSet } from '../secrets/secret-set.js';
import type { Deadline } from '../transport/call/deadline.js';
import type {
  Exchange,
  ExtraRound,
  IncomingResponse,
  OutgoingRequest,
  TransportFailure,
} from '../transport/call/exchange.js';
import type { ClockOffset } from './clock-offset.js';
import { interpretSendResponse } from './interpret-response.js';
import { type SignedRequest, type SigningContext, type SmsMethod, signedSendRequest } from './outgoing-request.js';
import type { SendSmsParams } from './send-request.js';
import type { SendSmsResult } from './send-result.js';
import { explainMismatch } from './signature-mismatch.js';
import type { SigningKeys } from './sms-credentials.js';
import { signatureSet, withSignatures } from './sms-redactor.js';
import { isRetryableSend, sendFailureError } from './transport-failure.js';

/**
 * Codes that prove nothing was sent and that a re-signed request (corrected
 * timestamp, new nonce) can fix: the send is made once more, at once.
 */
const RESIGN_ONCE: ReadonlySet<string> = new Set([
  'InvalidTimeStamp.Expired',
  'InvalidTimeStamp.Format',
  'SignatureNonceUsed',
]);
const CLOCK_CODES: ReadonlySet<string> = new Set(['InvalidTimeStamp.Expired', 'InvalidTimeStamp.Format']);
/**
 * Codes by which the service refuses the keys themselves (with
 * `InvalidSecurityToken.*`): a provider's keys may have been rotated, so it
 * is asked again, and the send is made once more if they changed.
 */
const KEY_REFUSALS: ReadonlySet<string> = new Set([
  'SignatureDoesNotMatch',
  'InvalidAccessKeyId.NotFound',
  'InvalidAccessKeyId.Inactive',
]);

/** What a client lends each send. */
export interface SendDeps {
  readonly credentials: CredentialSource<SigningKeys>;
  readonly clock: ClockOffset;
  readonly signing: SigningContext;
  readonly redact: Redactor;
  readonly retryUnknownOutcome: boolean;
  /** Told when an answer's `Date` header moved the clock offset. */
  readonly onClockCorrected: (offsetMs: number) => void;
}

/** One send's state across its attempts (the re-signed round included). */
export interface SendState {
  /** Every signature this send produced: hidden from its errors even if the service echoes one. */
  readonly signatures: SecretSet;
  /** Whether an attempt may have reached the service. */
  mayHaveSent: boolean;
  /** Attempts started so far. */
  attempts: number;
  /** The attempt in flight, and the keys that signed it. */
  last: { readonly method: SmsMethod; readonly signed: SignedRequest; readonly keys: SigningKeys } | undefined;
  /** Extra rounds taken: a re-signed one and one with refreshed keys, at most one of each. */
  resigned: boolean;
  refreshed: boolean;
}

export function newSendState(): SendState {
  return {
    signatures: signatureSet(),
    mayHaveSent: false,
    attempts: 0,
    last: undefined,
    resigned: false,
    refreshed: false,
  };
}

/** Whether a failed attempt is re-signed and made once more (the service refused it: nothing was sent). */
function resignsOnce(error: unknown): error is SmsError {
  return error instanceof SmsError && error.outcome === 'rejected' && RESIGN_ONCE.has(error.code);
}

/** Whether the service refused the keys (a rotation may have happened): nothing was sent. */
function refusesKeys(error: unknown): error is SmsError {
  return (
    error instanceof SmsError &&
    error.outcome === 'rejected' &&
    (KEY_REFUSALS.has(error.code) || error.code.startsWith('InvalidSecurityToken.'))
  );
}

/** The credential provider failed: nothing of this attempt was sent. */
function credentialsError(error: unknown, state: SendState): SmsError {
  return new SmsError({
    code: 'CREDENTIALS',
    outcome: state.mayHaveSent ? 'unknown' : 'not_sent',
    message: error instanceof Error ? error.message : 'credentials: the provider failed',
    cause: error,
    attempts: state.attempts - 1,
  });
}

/** What one send adds to the client's {@link SendDeps}. */
export interface SendCall {
  readonly method: SmsMethod;
  readonly params: SendSmsParams;
  readonly state: SendState;
  readonly signal: AbortSignal | undefined;
  /** This send's budget, started in `send()` before the limits check: attempts get what is left. */
  readonly deadline: Deadline | undefined;
  readonly op: SendOperation | undefined;
}

/**
 * One send as the transport drives it: each attempt signed afresh with the
 * current keys and clock; a refused timestamp or nonce earns one re-signed
 * round (the `extraRound` seam), in the transport's own loop. A class, as
 * the lookup exchange is: one style for the contract, its methods once on
 * the prototype.
 */
export class SendExchange implements Exchange<SendSmsResult> {
  readonly signal: AbortSignal | undefined;
  readonly deadline: Deadline | undefined;
  readonly op: SendOperation | undefined;
  readonly #deps: SendDeps;
  readonly #method: SmsMethod;
  readonly #params: SendSmsParams;
  readonly #state: SendState;
  /** The client's redactor, plus every signature this send produced. */
  readonly #redact: Redactor;

  constructor(deps: SendDeps, call: SendCall) {
    this.#deps = deps;
    this.#method = call.method;
    this.#params = call.params;
    this.#state = call.state;
    this.signal = call.signal;
    this.deadline = call.deadline;
    this.op = call.op;
    this.#redact = withSignatures(deps.redact, call.state.signatures);
  }

  /** Sends have their own circuit breaker. */
  get operation(): string {
    return 'send';
  }

  build(attempt: number): OutgoingRequest | Promise<OutgoingRequest> {
    this.#state.attempts = attempt;
    const keys = this.#deps.credentials.current();
    if (!(keys instanceof Promise)) return this.#sign(keys);
    return keys.then(
      (resolved) => this.#sign(resolved),
      (error: unknown) => {
        throw credentialsError(error, this.#state);
      },
    );
  }

  interpret(response: IncomingResponse): SendSmsResult {
    const date = response.headers.get('date');
    this.#observeClock(date, false);
    const last = this.#state.last;
    const redact = this.#redact;
    try {
      return interpretSendResponse(response, {
        redact,
        mayHaveSent: this.#state.mayHaveSent,
        stringToSign: last && (() => explainMismatch(last.method, last.signed.params, redact)),
      });
    } catch (error) {
      if (error instanceof SmsError && error.outcome === 'rejected') {
        if (CLOCK_CODES.has(error.code)) this.#observeClock(date, true);
        // Other refusals of the keys are fetched again on the next send (the rotated ones, at once: see extraRound).
        else if (error.category === 'auth' && !RESIGN_ONCE.has(error.code) && !refusesKeys(error)) {
          this.#deps.credentials.invalidate();
        }
      }
      throw this.#track(error);
    }
  }

  fail(failure: TransportFailure): Error {
    return this.#track(sendFailureError(failure, this.#state.mayHaveSent));
  }

  isRetryable(error: unknown): boolean {
    return isRetryableSend(error, this.#deps.retryUnknownOutcome);
  }

  extraRound(error: unknown): ExtraRound | undefined | Promise<ExtraRound | undefined> {
    const state = this.#state;
    // A refused timestamp or nonce proves nothing was sent: re-sign (corrected clock, new nonce) once.
    if (resignsOnce(error)) {
      if (state.resigned) return undefined;
      state.resigned = true;
      return 'resign';
    }
    // Refused keys: a provider is asked again (one call for every send refused meanwhile), and the
    // send made once more if they changed; nothing was sent. Fixed keys are never asked again.
    const used = state.last?.keys;
    if (state.refreshed || used === undefined || !refusesKeys(error)) return undefined;
    const changed = this.#deps.credentials.refresh(used);
    if (changed === false) return undefined;
    state.refreshed = true;
    return changed.then((yes) => (yes ? 'refresh' : undefined));
  }

  /** An answer that may have been sent makes every later failure of this send `unknown`. */
  #track<E>(error: E): E {
    if (error instanceof SmsError && error.outcome === 'unknown') this.#state.mayHaveSent = true;
    return error;
  }

  #sign(keys: SigningKeys): OutgoingRequest {
    const signed = signedSendRequest(this.#method, this.#params, this.#deps.signing, keys, this.#deps.clock.now());
    this.#state.signatures.add(signed.signature);
    this.#state.last = { method: this.#method, signed, keys };
    return signed.request;
  }

  #observeClock(date: string | null, refused: boolean): void {
    const clock = this.#deps.clock;
    if (clock.observe(date, refused)) this.#deps.onClockCorrected(clock.offsetMs);
  }
}
