import { createHash } from 'node:crypto';

/**
 * The tags a cacheable answer carries for CDNs to purge by (docs/cdn.md): what an import can change
 * under it. Lists whose membership any event change can alter carry `events`; answers that show
 * venues, organizers or category labels carry those catalogue tags; a single event's answer carries
 * `event-<id>` instead of `events`, so that an import purges only the pages of the events it changed.
 */
export const EVENTS_TAG = 'events';
export const VENUES_TAG = 'venues';
export const ORGANIZERS_TAG = 'organizers';
export const CATEGORIES_TAG = 'categories';
/**
 * On every tagged answer: purging it purges them all, softly (an import that changed more events
 * than a purge should name; Fastly's own advice for a soft purge-all).
 */
export const ALL_TAG = 'all';

/** Above this many changed events, an import purges ALL_TAG instead of one tag per event. */
export const MOST_EVENT_TAGS_PER_PURGE = 1000;

/**
 * Ids that every CDN takes as they are in a tag: letters, digits, `.`, `_`, `-`, at most 100 (no
 * separator, and nothing Akamai refuses in a cache tag, such as `:`, `@`, `*` or `/`).
 */
const PLAIN_ID = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * The tag of one event's answers: `event-<id>`, or `event_<digest>` for an id a CDN could not take
 * as it is (spaces, commas, other punctuation, non-ASCII, over 100 characters). The purge side uses
 * this same function.
 */
export function eventTag(id: string): string {
  return PLAIN_ID.test(id) ? `event-${id}` : `event_${createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, 22)}`;
}

/** Whether a tag is an event's own (eventTag), not a list's. */
export function isEventTag(tag: string): boolean {
  return tag.startsWith('event-') || tag.startsWith('event_');
}

/** The tags one response collects while it executes (beside those of its root fields): read once it is done. */
export class AnswerTags {
  private readonly tags = new Set<string>();

  add(tag: string): void {
    this.tags.add(tag);
  }

  values(): string[] {
    return [...this.tags];
  }
}

/** What one or more imports changed, as the CDN purge reads it (db/repositories/data-version-purges.ts). */
export interface ImportedChanges {
  /** Ids of the events changed or removed; at most MOST_EVENT_TAGS_PER_PURGE + 1 are needed. */
  eventIds: readonly string[];
  venues: boolean;
  organizers: boolean;
  categories: boolean;
}

/**
 * The tags to purge after imports: each changed event's own tag and `events` (every list of events
 * may show it), and each catalogue that changed. More events than MOST_EVENT_TAGS_PER_PURGE: `all`.
 * Empty when nothing any answer shows changed.
 */
export function tagsToPurge(changes: ImportedChanges): string[] {
  if (changes.eventIds.length > MOST_EVENT_TAGS_PER_PURGE) return [ALL_TAG];
  const tags = changes.eventIds.length > 0 ? [EVENTS_TAG] : [];
  if (changes.venues) tags.push(VENUES_TAG);
  if (changes.organizers) tags.push(ORGANIZERS_TAG);
  if (changes.categories) tags.push(CATEGORIES_TAG);
  return [...tags, ...new Set(changes.eventIds.map(eventTag))];
}
