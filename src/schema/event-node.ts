import type { OrganizerRow } from '../db/database.js';
import { formatOsloTimestamp } from '../domain/oslo-time.js';
import { EVENT_FIELDS } from '../fields/calendar-fields.js';
import { shownGetters } from '../fields/field-declaration.js';
import type { CalendarNode } from '../read-model/calendar-reader.js';

/** A stored instant as a Date: records read from the snapshot hold Dates already (no copy made). */
const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
const optionalTimestamp = (value: Date | string | null): string | null => (value == null ? null : formatOsloTimestamp(asDate(value)));

/**
 * What GraphQL resolves an Event from: one node of the read model (an event with one of its dates
 * promoted), its fields as getters. A field answered by a getter has no resolver, so the executor
 * reads it as a property: graphql-jit then calls no function with a resolve-info object, a response
 * path and an arguments object made for it, which for a page of 1 000 events were about 2 MB of
 * short-lived objects (bench: docs/performance.md, "Fields without resolvers"). The fields that need
 * the request (eventLink, repetitions) or take arguments (jsonLd) keep resolvers (resolvers/Event.ts),
 * which also checks these getters against the generated types (not here: those types import this
 * model, and a check here would make the two import each other).
 *
 * Date fields come from the promoted date (`node.occurrence`), the rest from the event. The stored
 * fields (src/fields/calendar-fields.ts) are the base class's getters, one per declaration, each reading
 * its column of the event.
 */
export class EventNode extends shownGetters(EVENT_FIELDS, (self: { readonly node: CalendarNode }) => self.node.event) {
  constructor(readonly node: CalendarNode) {
    super();
  }

  get startDate() {
    return formatOsloTimestamp(asDate(this.node.occurrence.start_at));
  }
  /** No end time: "endDate equals startDate". */
  get endDate() {
    const { end_at, start_at } = this.node.occurrence;
    return formatOsloTimestamp(asDate(end_at ?? start_at));
  }
  get startTime() {
    return this.node.occurrence.start_time;
  }
  get duration() {
    return this.node.occurrence.duration;
  }
  get categories() {
    return this.node.event.category_ids;
  }
  /** From the node's own snapshot, without a promise per node (a whole-world area answer has thousands). */
  get venue() {
    const venueId = this.node.occurrence.venue_id;
    return venueId ? (this.node.catalogue.venues.get(venueId) ?? null) : null;
  }
  get organizers() {
    const known = this.node.catalogue.organizers;
    const organizers: OrganizerRow[] = [];
    for (const id of this.node.event.organizer_ids) {
      const organizer = known.get(id);
      if (organizer) organizers.push(organizer);
    }
    return organizers;
  }
  get images() {
    return this.node.event.images;
  }
  /** Not promoted (rule 5): a date's own prices show on its Repetition; the event's are the event's. */
  get prices() {
    return this.node.event.prices;
  }
  get ticketsURL() {
    return this.node.occurrence.tickets_url;
  }
  get eventCancelled() {
    return this.node.occurrence.cancelled;
  }
  get eventSoldOut() {
    return this.node.occurrence.sold_out;
  }
  get publishingDate() {
    return optionalTimestamp(this.node.event.publishing_date);
  }
  get ticketsFromDate() {
    return optionalTimestamp(this.node.event.tickets_from_date);
  }
  get created_at() {
    return new Date(this.node.event.created_at).toISOString();
  }
  get updated_at() {
    return new Date(this.node.event.updated_at).toISOString();
  }
  get distanceKm() {
    return this.node.distanceKm;
  }
}

/** Nodes as GraphQL resolves them. */
export function eventNodes(nodes: readonly CalendarNode[]): EventNode[] {
  return nodes.map((node) => new EventNode(node));
}
