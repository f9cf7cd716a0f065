/**
 * The accounts the SMS double knows and the messages it bills: plain types,
 * shared by the double, its send action and the sandbox defaults.
 * @module
 */

/**
 * An account of the SMS double.
 *
 * @example
 * ```ts
 * { accessKeyId: 'member-id', accessKeySecret: 'member-secret', plan: 'member', signPrefix: 'Acme' }
 * ```
 */
export interface SmsAccount {
  /** The `AccessKeyId` requests name the account by (non-empty). */
  readonly accessKeyId: string;
  /** The secret the request `Signature` is checked against (non-empty). */
  readonly accessKeySecret: string;
  /** A free account is always sent with the default signature, whatever `SignName` says. */
  readonly plan: 'free' | 'member';
  /**
   * Members only: the `SignName` a member sends must start with this prefix
   * (`isv.SMS_SIGNATURE_ILLEGAL` otherwise). Without it any `SignName` goes.
   */
  readonly signPrefix?: string;
}

/** One accepted message, as the double billed it. */
export interface SentMessage {
  /** The `RequestId` returned for this send (a random UUID). */
  readonly requestId: string;
  /** The account that sent it. */
  readonly accessKeyId: string;
  /** `PhoneNumbers` split at commas. */
  readonly phoneNumbers: readonly string[];
  /** The signature applied (the default one for a free account or an omitted `SignName`). */
  readonly signName: string;
  /** `TemplateCode`, as sent. */
  readonly templateCode: string;
  /** `TemplateParam`, parsed. */
  readonly templateParam: unknown;
  /** The substituted content, when the template content is known. */
  readonly content: string | undefined;
  /** Messages per recipient: one per 50 characters of `content`, else 1. */
  readonly segments: number;
  /** `segments` × recipients: what the send costs. */
  readonly billedCount: number;
  /** HTTP method the send used. */
  readonly method: 'GET' | 'POST';
  /** When the double accepted it (local clock). */
  readonly receivedAt: Date;
}
