import type { EventQuery } from '../../domain/event-query.js';
import { EVENT_FEATURED, EVENT_FEATURED_SPECIAL, MODE_OFFLINE, MODE_ONLINE, type CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { anyListed, listsValue, membership } from './membership.js';

/** The event-level conditions of a query as a predicate on event numbers (publishing included). */
export function eventCondition(snapshot: CalendarSnapshot, q: EventQuery): (event: number) => boolean {
  const now = q.now.getTime();
  const categoryCount = snapshot.categoryIds.length;
  const categories = q.categories ? membership(categoryCount, q.categories.map((c) => snapshot.categoryByKey.get(c))) : null;
  const notCategories = q.notCategories.length > 0 ? membership(categoryCount, q.notCategories.map((c) => snapshot.categoryByKey.get(c))) : null;
  const organizerSets = q.organizerSlugSets.map((slugs) =>
    membership(snapshot.organizerIds.length, slugs.map((slug) => snapshot.organizerBySlug.get(slug))),
  );
  // A tag or super event no event has: nothing matches (-2 never equals a stored number).
  const tag = q.tag == null ? -1 : (snapshot.tagKeys.get(q.tag) ?? -2);
  const superEvent = q.superEvent == null ? -1 : (snapshot.superEventKeys.get(q.superEvent) ?? -2);
  const mode = q.mode == null ? -1 : q.mode === 'online' ? MODE_ONLINE : MODE_OFFLINE;
  const requiredFlags = (q.onlyFeatured ? EVENT_FEATURED : 0) | (q.onlyFeaturedSpecialEvent ? EVENT_FEATURED_SPECIAL : 0);
  const { eventPublishing, eventMode, eventFlags, eventSuperEvent, eventTags, eventCategories, eventOrganizers } = snapshot;
  return (e) => {
    const publishing = eventPublishing[e]!;
    if (publishing > now) return false;
    if (mode !== -1 && eventMode[e] !== mode) return false;
    if ((eventFlags[e]! & requiredFlags) !== requiredFlags) return false;
    if (superEvent !== -1 && eventSuperEvent[e] !== superEvent) return false;
    if (tag !== -1 && !listsValue(eventTags, e, tag)) return false;
    if (categories && !anyListed(eventCategories, e, categories)) return false;
    if (notCategories && anyListed(eventCategories, e, notCategories)) return false;
    for (const organizers of organizerSets) if (!anyListed(eventOrganizers, e, organizers)) return false;
    return true;
  };
}
