/*
 * The observer seam's vocabulary: every fact the transport and the clients
 * report about a call, as typed events. Holds types only; imports nothing
 * but other type-only modules. Subscribers (the logger, OpenTelemetry,
 * `diagnostics_channel`) read these events and never reach around them.
 *
 * Events carry no secret: URLs are redacted before they are put in an event,
 * and no API key, access key secret, signature, phone number or template
 * value is ever a field.
 */

/** `hashscan` or `sms`: which client a call belongs to. */
export type ClientName = 'hashscan' | 'sms';

/** A feature with a Redis link of its own: the SMS sending limits, or `OtpVerifier`'s codes and guard. */
export type FleetUse = 'limits' | 'verification';

/**
 * Identity of one logical operation (one looked-up hash, one `send()`).
 * Events of the same operation carry the same object, so a subscriber can
 * keep per-operation state in a `WeakMap` keyed by it (an OpenTelemetry span,
 * a start time). Its fields are fixed at the operation's start.
 */
export type OperationRef = ScanOperation | SendOperation;

/** A lookup of one hash by `HashScanClient` (also each one inside `scanMany`/`scanIterable`). */
export interface ScanOperation {
  readonly client: 'hashscan';
  readonly operation: 'scan';
  /** The normalized (lower-case hex) hash. */
  readonly hash: string;
  readonly algorithm: 'md5' | 'sha1' | 'sha256';
  readonly sourceId: string;
}

/** One `SmsClient.send()`. */
export interface SendOperation {
  readonly client: 'sms';
  readonly operation: 'send';
  readonly phoneCount: number;
  readonly templateCode: string;
  readonly method: 'GET' | 'POST';
}

/** How an operation ended, as seen from above the transport. */
export interface OperationEnd {
  readonly type: 'operation:end';
  readonly op: OperationRef;
  /** The resolved value (a `ScanResult`, a `SendSmsResult`); absent on failure. */
  readonly result?: unknown;
  /** The client's error (a `HashScanError`, an `SmsError`); absent on success. */
  readonly error?: Error;
  /** Error code on failure (`error.type` in OpenTelemetry terms). */
  readonly errorCode?: string;
  /** Where the answer came from: `memory`/`shared` cache, or `undefined` when the service was asked. */
  readonly cache: 'memory' | 'shared' | undefined;
  /** HTTP attempts this operation made itself (0 for a cache hit or a shared in-flight lookup). */
  readonly attempts: number;
  readonly durationMs: number;
}

/** Every event of the seam. */
export type ObserverEvent =
  | { readonly type: 'operation:start'; readonly op: OperationRef }
  | OperationEnd
  /** A lookup answered from a cache level, or a miss at one. */
  | {
      readonly type: 'cache';
      readonly op: OperationRef;
      readonly level: 'memory' | 'shared';
      readonly outcome: 'hit' | 'miss';
    }
  /** A lookup that joined a request already in flight for the same hash. */
  | { readonly type: 'in-flight:joined'; readonly op: OperationRef }
  /**
   * The shared store is left alone after failures (`skipping`: its calls are
   * skipped for `backoffMs`, then probed one at a time), or a probe succeeded
   * and it is used again (`resumed`). Once per transition.
   */
  | {
      readonly type: 'store';
      /** The client whose store it is. */
      readonly client?: ClientName;
      readonly state: 'skipping' | 'resumed';
      /** The failure's code (`timeout`, `ECONNREFUSED` …), never its message. */
      readonly reason?: string;
      readonly backoffMs?: number;
    }
  /**
   * One shared-store operation failed (each one, not rate-limited: a subscriber
   * such as the logger decides how often to say so). `code` is the store
   * client's error code or name only, never its message.
   */
  | {
      readonly type: 'store:failed';
      readonly client: ClientName;
      readonly operation: string;
      readonly reason: 'timeout' | 'error';
      readonly code: string;
    }
  /**
   * The fleet's Redis failed (`unavailable`: each replica runs on its own
   * until it answers again) or answers again (`resumed`); said once each way.
   * `code` is the Redis client's error code or name only, never its message.
   * `use: 'limits'`: said by the sending limits' own link; `use: 'verification'`: by `OtpVerifier`'s
   * (absent: the fleet's coordination).
   */
  | {
      readonly type: 'fleet';
      readonly client: ClientName;
      readonly state: 'unavailable' | 'resumed';
      readonly code?: string;
      readonly use?: FleetUse;
    }
  /** The fleet's Redis client would queue commands while disconnected (said once, when the client is built). */
  | { readonly type: 'fleet:offline-queue'; readonly client: ClientName; readonly setting: string }
  /** A send refused by the sending limits before any request (`SEND_LIMITED`): `perMinute`, `perHour`, `perDay` (per number), `dailyBudget`, `perCaller.perMinute` …, or `unavailable`; names the limit, never the number or the caller. */
  | {
      readonly type: 'fleet:limited';
      readonly client: ClientName;
      readonly limit: string;
      readonly retryAfterMs: number;
    }
  /** A shared cache entry failed its checks (bad MAC, wrong hash …) and was ignored. */
  | { readonly type: 'cache:rejected'; readonly client: ClientName; readonly hash: string; readonly reason: string }
  /** The SMS client learnt the service's clock offset from a `Date` header and corrects its timestamps by it. */
  | { readonly type: 'clock'; readonly client: ClientName; readonly offsetMs: number }
  /** The transport starts one call (one exchange) on behalf of an operation. */
  | { readonly type: 'call:start'; readonly client: ClientName; readonly op: OperationRef | undefined }
  | {
      readonly type: 'call:end';
      readonly client: ClientName;
      readonly op: OperationRef | undefined;
      readonly attempts: number;
      readonly errorCode?: string;
    }
  /** One HTTP attempt is about to be sent. */
  | {
      readonly type: 'attempt:start';
      readonly client: ClientName;
      readonly op: OperationRef | undefined;
      /** 1-based. */
      readonly attempt: number;
      readonly method: 'GET' | 'POST';
      /** Full URL with every secret replaced by `REDACTED`-style masking. */
      readonly url: string;
      readonly serverAddress: string;
      readonly serverPort: number;
    }
  | {
      readonly type: 'attempt:end';
      readonly client: ClientName;
      readonly op: OperationRef | undefined;
      readonly attempt: number;
      readonly method: 'GET' | 'POST';
      readonly url: string;
      /** HTTP status when a response came. */
      readonly status?: number;
      /** `TIMEOUT`, `NETWORK`, `ABORTED`, `RESPONSE_TOO_LARGE` when no (whole) response came. */
      readonly errorCode?: string;
      /** The service's own code off the body (SMS `Code`), redacted. */
      readonly serviceCode?: string;
      readonly hint?: string;
      readonly durationMs: number;
    }
  /** A retry is scheduled after `delayMs`. */
  | {
      readonly type: 'retry';
      readonly client: ClientName;
      readonly op: OperationRef | undefined;
      /** The attempt that failed. */
      readonly attempt: number;
      readonly delayMs: number;
      /** Why: the error code (`HTTP_500`, `TIMEOUT`, `SignatureDoesNotMatch` …). */
      readonly reason: string;
      /** `backoff` for an ordinary retry; `resign`/`refresh` for an extra round of the exchange. */
      readonly kind: 'backoff' | 'resign' | 'refresh';
    }
  /** A circuit breaker changed state. */
  | {
      readonly type: 'breaker';
      readonly client: ClientName;
      readonly state: 'closed' | 'open' | 'half-open';
      /** Which breaker: operation and host, e.g. `scan h.example:443`. */
      readonly key?: string;
      /** What moved it, e.g. `10 calls failed, none succeeded since they started`. */
      readonly reason?: string;
      /** How long it refuses calls (`open` only), in ms. */
      readonly openMs?: number;
    }
  /** An attempt the open circuit refused. */
  | { readonly type: 'breaker:refused'; readonly client: ClientName; readonly op: OperationRef | undefined }
  /**
   * A pause starts holding every attempt of the client: a `429`'s
   * `Retry-After` (`retry-after`, capped at `rateLimit.maxPauseMs`) or the
   * fleet's pause read from Redis (`fleet`). Said once per pause, not per
   * call; an extension of a pause in force is the same pause.
   */
  | {
      readonly type: 'pause';
      readonly client: ClientName;
      readonly source: 'retry-after' | 'fleet';
      readonly pauseMs: number;
    }
  /** The rate gate holds attempts (a `Retry-After` pause or the `rateLimit`), or lets them go again. */
  | {
      readonly type: 'rate-gate';
      readonly client: ClientName;
      readonly op: OperationRef | undefined;
      readonly state: 'paused' | 'resumed';
      readonly waitMs?: number;
    };

/** The type of an event, e.g. `attempt:end`. */
export type ObserverEventType = ObserverEvent['type'];

/** Something that receives events. It must not throw (a throw is caught and dropped) and must not block. */
export interface Observer {
  observe(event: ObserverEvent): void;
  /**
   * The event types this observer reads. Events nobody reads are not even
   * built, so an observer that names its types costs nothing on the others.
   * @defaultValue every type
   */
  readonly types?: readonly ObserverEventType[];
  /**
   * Whether this observer reads anything right now, for one whose interest
   * comes and goes (a `diagnostics_channel` with or without subscribers, an
   * OpenTelemetry API with or without a registered provider). Asked before
   * each operation and event: while it says no, nothing is built for it.
   * @defaultValue always interested
   */
  active?(): boolean;
}
