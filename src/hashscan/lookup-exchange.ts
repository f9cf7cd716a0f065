import { HashScanError } from '../errors/hashscan-error.js';
import type { NormalizedHash } from '../hashing/hash-algorithm.js';
import type { ScanOperation } from '../observe/events.js';
import type { CredentialSource } from '../secrets/credentials.js';
import type { Redactor } from '../secrets/redact.js';
import type { Deadline } from '../transport/call/deadline.js';
import type {
  Exchange,
  ExtraRound,
  IncomingResponse,
  OutgoingRequest,
  TransportFailure,
} from '../transport/call/exchange.js';
import { isTransientStatus } from '../transport/http/retry-after.js';
import type { AbortLike } from '../util/abort-like.js';
import type { SharedProgress } from '../util/in-flight.js';
import { type ApiKey, type KeyUsed, lookupRequest, refusesKey } from './api-key.js';
import { type InterpretContext, interpretScanResponse } from './interpret-response.js';
import type { notDetectedSchema } from './response-schema.js';
import type { ScanResult } from './scan-result.js';
import type { SharedBodies } from './shared-body.js';
import { scanFailureError } from './transport-failure.js';

/** What every lookup of one client shares: made once per client. */
export interface LookupSettings {
  readonly apiKey: CredentialSource<ApiKey>;
  readonly notDetected: ReturnType<typeof notDetectedSchema>;
  readonly redact: Redactor;
  readonly bodies: SharedBodies;
}

/**
 * One lookup as the transport drives it. A class rather than an object of
 * closures: a lookup answered in tens of microseconds pays for every
 * allocation, and its methods live once on the prototype. It is also the
 * interpretation's context (query, schema, redactor), so none is built per response.
 */
export class LookupExchange implements Exchange<ScanResult>, InterpretContext, KeyUsed {
  /** The key the last attempt was sent with. */
  used: ApiKey | undefined = undefined;
  readonly notDetected: ReturnType<typeof notDetectedSchema>;
  readonly redact: Redactor;
  readonly #settings: LookupSettings;
  readonly #progress: SharedProgress;
  #refreshed = false;

  constructor(
    settings: LookupSettings,
    readonly query: NormalizedHash,
    progress: SharedProgress,
    readonly signal: AbortLike,
    /** The lookup's deadline, started before the shared store and the fleet's wait: attempts get what is left. */
    readonly deadline: Deadline | undefined,
    readonly op: ScanOperation | undefined = undefined,
  ) {
    this.#settings = settings;
    this.notDetected = settings.notDetected;
    this.redact = settings.redact;
    this.#progress = progress;
  }

  /** Lookups have their own circuit breaker. */
  get operation(): string {
    return 'scan';
  }

  /** A hash that keeps failing counts once per window for the breaker, however many ask for it. */
  get subject(): string {
    return this.query.hash;
  }

  build(attempt: number): OutgoingRequest | Promise<OutgoingRequest> {
    this.#progress.attempts = attempt;
    return lookupRequest(this.#settings.apiKey, this.query.hash, attempt, this);
  }

  interpret(response: IncomingResponse): ScanResult {
    return interpretScanResponse(response, this, this.#settings.bodies);
  }

  /**
   * A key the service refused (401/403) may have been rotated: a provider is
   * asked again (one call for every lookup refused meanwhile) and, if the key
   * changed, the lookup is made once more with it. A fixed key never is.
   */
  extraRound(error: unknown): Promise<ExtraRound | undefined> | undefined {
    const used = this.used;
    if (this.#refreshed || used === undefined || !refusesKey(error)) return undefined;
    const changed = this.#settings.apiKey.refresh(used);
    if (changed === false) return undefined;
    this.#refreshed = true;
    return changed.then((yes) => (yes ? 'refresh' : undefined));
  }

  fail(failure: TransportFailure): Error {
    return scanFailureError(failure, this.query.hash);
  }

  /**
   * Time-outs, network failures and 408/429/5xx only: a normal answer, an
   * abnormal structure or a hit will not change on a second try (spec part 8).
   */
  isRetryable(error: unknown): boolean {
    return (
      error instanceof HashScanError &&
      (error.code === 'TIMEOUT' ||
        error.code === 'NETWORK' ||
        (error.code === 'HTTP_STATUS' && isTransientStatus(error.status)))
    );
  }
}
