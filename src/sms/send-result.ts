/**
 * A send the service accepted: HTTP 2xx with `Code: "OK"`. Nothing else is
 * ever reported as a success.
 *
 * Billing: the send is charged by the length of the template content after
 * substitution (see `estimateSmsCount`); a failed send is not charged.
 */
export interface SendSmsResult {
  /** The service's `Code`: always `'OK'` for a success. */
  readonly code: 'OK';
  /** The service's `Message`. */
  readonly message: string;
  /** The service's `RequestId`, unique per successful send. Keep it for support requests. */
  readonly requestId: string;
  /**
   * HTTP attempts this send took. More than 1 means earlier attempts failed
   * to connect (never delivered), or, with `retryUnknownOutcome`, that an
   * earlier attempt may have delivered too.
   */
  readonly attempts: number;
}
