import type { Filter } from '../../generated/schema-types.js';
import type { SnapshotCatalogue } from '../read-model/snapshot/calendar-snapshot.js';
import type { FeedLanguage } from './feed-parameters.js';

const EVENTS: Record<FeedLanguage, string> = { nb: 'Arrangementer', en: 'Events' };

/**
 * The name a subscriber sees in their list of calendars: "Events", with the categories and the
 * venue or organizer the filter names (a venue's "subscribe to our programme" feed reads as the venue).
 */
export function feedName(filter: Filter, catalogue: SnapshotCatalogue, lan: FeedLanguage): string {
  const categories = (filter.categories ?? []).flatMap((id) => {
    const category = catalogue.categories.find((c) => c.id === id);
    return category ? [lan === 'nb' ? category.name_nb : category.name_en] : [];
  });
  const venue = filter.venueSlug ? catalogue.venuesByName.find((v) => v.slug === filter.venueSlug)?.name : undefined;
  const organizer = filter.organizerSlug ? catalogue.organizersByName.find((o) => o.slug === filter.organizerSlug)?.name : undefined;
  const what = categories.length > 0 ? `${EVENTS[lan]}: ${categories.join(', ')}` : EVENTS[lan];
  return [what, venue, organizer].filter((part) => part).join(' · ');
}
