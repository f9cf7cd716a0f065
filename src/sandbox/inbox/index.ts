/**
 * The sandbox inbox, as `start-sandbox.ts` uses it: a store fed with every
 * request the doubles record, and the handler of `/_inbox`.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RecordedRequest } from '../../doubles/request-log.js';
import type { SentMessage } from '../../doubles/sms-account.js';
import {
  DEFAULT_INBOX_LIMIT,
  type InboxOptions,
  isLoopbackAddress,
  isLoopbackHost,
  resolveInboxAccess,
} from './access.js';
import { createInboxHandler, INBOX_PATH, isInboxPath } from './http.js';
import { createInboxStore } from './store.js';

export type { InboxOptions } from './access.js';
export type { InboxLookup, InboxMessage } from './entries.js';
export { DEFAULT_INBOX_LIMIT, INBOX_PATH, isInboxPath, isLoopbackAddress, isLoopbackHost };

/** A running inbox. */
export interface Inbox {
  /** Records what a double saw; `sent` is the message an accepted SMS send billed. */
  record(entry: RecordedRequest, sent: SentMessage | undefined): void;
  /** Answers a request under {@link INBOX_PATH}. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): void;
}

/**
 * The inbox of a sandbox bound to `boundAddress` (shown on the page).
 * @throws {ConfigurationError} for bad options, or a sandbox bound beyond loopback without a token.
 */
export function createInbox(options: InboxOptions, boundAddress: string): Inbox {
  const access = resolveInboxAccess(options, boundAddress);
  const store = createInboxStore(access.limit);
  return { record: store.record, handle: createInboxHandler(store, access, boundAddress) };
}
