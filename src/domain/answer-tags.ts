import { createHash } from 'node:crypto';

/**
 * The tags a cacheable answer carries for CDNs to purge by (docs/cdn.md): what an import can change
 * under it. Lists whose membership any event change can alter carry `events`; answers that show
 * venues, organizers or category labels carry those catalogue tags; a single event's answer carries
 * `event:<id>` instead of `events`, so that an import purges only the pages of the events it changed.
 */
export const EVENTS_TAG = 'events';
export const VENUES_TAG = 'venues';
export const ORGANIZERS_TAG = 'organizers';
export const CATEGORIES_TAG = 'categories';

/** Ids that every CDN takes as they are in a tag: printable, no separator (space, comma), short. */
const PLAIN_ID = /^[A-Za-z0-9._~:@+=/-]{1,100}$/;

/**
 * The tag of one event's answers: `event:<id>`, or `event:#<digest>` for an id a CDN could not take
 * as it is (spaces, commas, non-ASCII, over 100 characters). The purge side uses this same function.
 */
export function eventTag(id: string): string {
  return PLAIN_ID.test(id) ? `event:${id}` : `event:#${createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, 22)}`;
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
