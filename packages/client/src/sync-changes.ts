import { CalendarRequestError } from './calendar-request-error.js';
import type { AbortSignalLike, CalendarClient } from './create-calendar-client.js';
import { ChangesDocument, type ChangesQuery } from './generated/documents.js';

/** One page of `changes`, with the fields of the detail view (`EventDetailFields`) for each changed event. */
export type ChangesPage = ChangesQuery['changes'];
export type ChangedEvent = ChangesPage['changed'][number];

export interface SyncChangesOptions {
  /** The cursor the previous sync returned; null (or left out): a full sync. */
  since?: string | null | undefined;
  /** Ids per page, 1 to 1000. @default 500 */
  pageSize?: number | undefined;
  /**
   * Applies one page to the mirror: put every `changed` event by `id` (replacing the one held),
   * delete every `removedIds` entry. Awaited before the next page is asked for.
   */
  apply: (page: ChangesPage) => void | Promise<void>;
  /**
   * Empties the mirror. Called before a full sync: the first one (no `since`), and when the service
   * answers that the cursor is too old or unknown (`RESYNC_REQUIRED`), after which the sync starts over.
   */
  reset: () => void | Promise<void>;
  /** Waits between retries of an answer 503 (the service is being updated) or 429 (budget spent); longer when Retry-After says so. @default 1000 */
  retryDelayMs?: number | undefined;
  /** Retries of a 503 or 429 answer per page before giving up (the error is thrown). @default 5 */
  retries?: number | undefined;
  signal?: AbortSignalLike | undefined;
}

export interface SyncChangesResult {
  /** Store it and pass it as `since` next time. */
  cursor: string;
  /** Whether the mirror was rebuilt from empty (first sync, or a resync the service asked for). */
  full: boolean;
  pages: number;
}

const isResyncRequired = (error: unknown): boolean =>
  error instanceof CalendarRequestError && error.errors.some((e) => e.extensions?.['reason'] === 'RESYNC_REQUIRED');
/** Answers worth retrying after a pause: the service is busy or being updated (503), or this caller's budget is spent (429). */
const isUnavailable = (error: unknown): error is CalendarRequestError =>
  error instanceof CalendarRequestError && (error.code === 'SERVICE_UNAVAILABLE' || error.code === 'RATE_LIMITED');

/**
 * Brings a mirror of the calendar (what `events` shows) up to date: asks `changes` page by page
 * from `since` until nothing more is pending, applying each page (docs/change-sync.md). Returns the
 * cursor to keep. A cursor the service no longer accepts starts a full sync (after `reset`).
 */
export async function syncChanges(client: CalendarClient, options: SyncChangesOptions): Promise<SyncChangesResult> {
  const pageSize = options.pageSize ?? 500;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const retries = options.retries ?? 5;
  let since = options.since ?? null;
  let full = since === null;
  let pages = 0;
  if (full) await options.reset();
  for (;;) {
    let page: ChangesPage;
    try {
      page = await askWithRetries(client, since, pageSize, retries, retryDelayMs, options.signal);
    } catch (error) {
      if (since === null || full || !isResyncRequired(error)) throw error;
      // The service no longer knows what changed since this cursor: rebuild the mirror from empty.
      await options.reset();
      since = null;
      full = true;
      continue;
    }
    await options.apply(page);
    pages++;
    since = page.cursor;
    if (!page.hasMore) return { cursor: page.cursor, full, pages };
  }
}

async function askWithRetries(
  client: CalendarClient,
  since: string | null,
  pageSize: number,
  retries: number,
  retryDelayMs: number,
  signal: AbortSignalLike | undefined,
): Promise<ChangesPage> {
  for (let attempt = 0; ; attempt++) {
    try {
      const data = await client.request(ChangesDocument, { since, pageSize }, { signal });
      return data.changes;
    } catch (error) {
      if (!isUnavailable(error) || attempt >= retries || signal?.aborted) throw error;
      // As long as the service asked (Retry-After), at least retryDelayMs.
      await new Promise((resolve) => setTimeout(resolve, Math.max(retryDelayMs, (error.retryAfter ?? 0) * 1000)));
    }
  }
}
