import type { OrganizerRow } from '../db/database.js';
import { formatOsloTimestamp } from '../domain/oslo-time.js';
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
 * Date fields come from the promoted date (`node.occurrence`), the rest from the event.
 */
export class EventNode {
  constructor(readonly node: CalendarNode) {}

  get id() {
    return this.node.event.id;
  }
  get event_slug() {
    return this.node.event.slug;
  }
  get title_nb() {
    return this.node.event.title_nb;
  }
  get title_en() {
    return this.node.event.title_en;
  }
  get desc_nb() {
    return this.node.event.desc_nb;
  }
  get desc_en() {
    return this.node.event.desc_en;
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
  get mode() {
    return this.node.event.mode;
  }
  get tags() {
    return this.node.event.tags;
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
  get ticketsInformation() {
    return this.node.event.tickets_information;
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
  get isSuperEvent() {
    return this.node.event.is_super_event;
  }
  get superEventID() {
    return this.node.event.super_event_id;
  }
  get featured() {
    return this.node.event.featured;
  }
  get minimumAge() {
    return this.node.event.minimum_age;
  }
  get maximumAge() {
    return this.node.event.maximum_age;
  }
  get ageRestriction() {
    return this.node.event.age_restriction;
  }
  get cancellationPeriod() {
    return this.node.event.cancellation_period;
  }
  get views() {
    return this.node.event.views;
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
  get registrationEnabled() {
    return this.node.event.registration_enabled;
  }
  get availableTickets() {
    return this.node.event.available_tickets;
  }
  get activeTickets() {
    return this.node.event.active_tickets;
  }
  get maxBookingDate() {
    return this.node.event.max_booking_date;
  }
  get maxBookingTime() {
    return this.node.event.max_booking_time;
  }
  get paymentMethod() {
    return this.node.event.payment_method;
  }
  get distanceKm() {
    return this.node.distanceKm;
  }
}

/** Nodes as GraphQL resolves them. */
export function eventNodes(nodes: readonly CalendarNode[]): EventNode[] {
  return nodes.map((node) => new EventNode(node));
}
