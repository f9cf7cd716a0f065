/** What every smoke test needs from a backend (the sandbox or the local stub). */
export interface Backend {
  readonly kind: string;
  readonly hashScanUrl: string;
  readonly smsUrl: string;
  readonly apiKey: string;
  readonly accessKeyId: string;
  readonly accessKeySecret: string;
  readonly maliciousHash: string;
  readonly cleanHash: string;
  readonly templateCode: string;
  readonly templateParam: Readonly<Record<string, string>>;
  /**
   * An error thrown by the `hashscan-sms/testing` entry (sandbox backends only),
   * to check that both entry points share one set of error classes.
   */
  readonly testingEntryError?: () => unknown;
  /** HTTP requests the backend has received so far. */
  requestCount(): number;
  close(): Promise<void>;
}

export declare function startStub(): Promise<Backend>;
