/**
 * The inbox's memory: the last `limit` messages and lookups, oldest dropped
 * first, and the listeners (event streams, long polls) to wake on a change.
 * @module
 */
import type { RecordedRequest } from '../../doubles/request-log.js';
import type { SentMessage } from '../../doubles/sms-account.js';
import { type InboxLookup, type InboxMessage, lookupEntry, messageEntry } from './entries.js';

/** A change, as the event stream sends it. */
export type InboxChange =
  | { readonly type: 'message'; readonly message: InboxMessage }
  | { readonly type: 'lookup'; readonly lookup: InboxLookup }
  | { readonly type: 'clear'; readonly what: 'messages' | 'lookups' };

/** The inbox entries and who listens to them. */
export interface InboxStore {
  /** Oldest first. */
  messages(): readonly InboxMessage[];
  /** Oldest first. */
  lookups(): readonly InboxLookup[];
  /** The id the next message will have minus one (0 before the first). */
  lastMessageId(): number;
  /** Records a request the sandbox answered; `sent` is the message an accepted SMS send billed. */
  record(entry: RecordedRequest, sent: SentMessage | undefined): void;
  clear(what: 'messages' | 'lookups'): void;
  /** Calls `listener` on every change until the returned function is called. */
  subscribe(listener: (change: InboxChange) => void): () => void;
}

/** Keeps the last `limit` of an array, dropping the oldest. */
function keepLast<T>(entries: T[], limit: number): void {
  while (entries.length > limit) entries.shift();
}

/** A store keeping the last `limit` messages and the last `limit` lookups. */
export function createInboxStore(limit: number): InboxStore {
  const messages: InboxMessage[] = [];
  const lookups: InboxLookup[] = [];
  const listeners = new Set<(change: InboxChange) => void>();
  let messageIds = 0;
  let lookupIds = 0;
  const emit = (change: InboxChange): void => {
    for (const listener of [...listeners]) listener(change);
  };
  return {
    messages: () => messages,
    lookups: () => lookups,
    lastMessageId: () => messageIds,
    record(entry, sent) {
      if (entry.service === 'sms') {
        messageIds += 1;
        const message = messageEntry(messageIds, entry, sent);
        messages.push(message);
        keepLast(messages, limit);
        emit({ type: 'message', message });
      } else {
        lookupIds += 1;
        const lookup = lookupEntry(lookupIds, entry);
        lookups.push(lookup);
        keepLast(lookups, limit);
        emit({ type: 'lookup', lookup });
      }
    },
    clear(what) {
      (what === 'messages' ? messages : lookups).length = 0;
      emit({ type: 'clear', what });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
