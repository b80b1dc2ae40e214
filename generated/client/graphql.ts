/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/**
 * Conditions on the `events` query. All fields are optional; every given condition must hold.
 * Date arguments: `YYYY-MM-DD HH:mm:ss` followed by `+HH:MM`, `+HHMM`, `+HH` or `Z` (a `T` may replace the space;
 * without an offset the time is read as Europe/Oslo wall-clock time).
 */
export type Filter = {
  /** Remove cancelled dates and events. */
  cancelledNotIncluded?: boolean | null | undefined;
  /** Category ids; any may match. An empty list means all. */
  categories?: Array<string | null | undefined> | null | undefined;
  /** Events still going on at or after this moment: not yet ended, or (without an end time) started less than three hours before. Default: now. */
  fromDate?: string | null | undefined;
  /** Events that start at or after this moment (excludes ongoing ones). */
  fromStartDate?: string | null | undefined;
  /** One node per event and Oslo calendar day with a matching date; the same day's other dates stay in that node's `repetitions`. */
  groupRepetitionsByDay?: boolean | null | undefined;
  /** `HH:mm-HH:mm`: dates whose Oslo wall-clock start lies in the window (start inclusive, end exclusive; may wrap past midnight). */
  hoursRange?: string | null | undefined;
  /** `online` or `offline`. */
  mode?: string | null | undefined;
  /** The venue's municipality (case-insensitive). */
  municipality?: string | null | undefined;
  /** Category ids to exclude. */
  notCategories?: Array<string | null | undefined> | null | undefined;
  /** Only events featured by the organizer. */
  onlyFeatured?: boolean | null | undefined;
  /** Only events featured in the licence's special event. */
  onlyFeaturedSpecialEvent?: boolean | null | undefined;
  /** One organizer slug. */
  organizerSlug?: string | null | undefined;
  /** Organizer slugs; any may match. */
  organizers?: Array<string | null | undefined> | null | undefined;
  /** Postal codes of the venue's address; any may match. */
  postalCodes?: Array<string | null | undefined> | null | undefined;
  /** Free text, case- and accent-insensitive, over titles, descriptions, tags, venue, organizer and category names. Falls back to approximate matching of titles and descriptions when nothing matches literally. */
  searchTerm?: string | null | undefined;
  /** Remove sold-out dates and events. */
  soldOutNotIncluded?: boolean | null | undefined;
  /**
   * Has no effect: results are always chronological.
   * @deprecated Results are always chronological; this field is ignored.
   */
  sortBy?: string | null | undefined;
  /** Id of a container event: returns its programme. */
  superEvent?: string | null | undefined;
  /** One keyword from `Event.tags`. */
  tag?: string | null | undefined;
  /** Events that start before this moment. */
  untilDate?: string | null | undefined;
  /** One venue slug. */
  venueSlug?: string | null | undefined;
  /** Venue slugs; any may match. */
  venues?: Array<string | null | undefined> | null | undefined;
};

export type CategoriesQueryVariables = Exact<{ [key: string]: never; }>;


export type CategoriesQuery = { categories: Array<{ id: string, name_nb: string, name_en: string, slug_nb: string, slug_en: string, visible: boolean, subCategories: Array<{ id: string, name_nb: string, name_en: string, slug_nb: string, slug_en: string, visible: boolean }> }> | null };

export type VenuesQueryVariables = Exact<{ [key: string]: never; }>;


export type VenuesQuery = { venues: Array<{ id: string, name: string, slug: string, address: string | null, postalCode: string | null, municipality: string | null, location: { latitude: number, longitude: number } | null }> | null };

export type OrganizersQueryVariables = Exact<{ [key: string]: never; }>;


export type OrganizersQuery = { organizers: Array<{ id: string, name: string, slug: string, website: string | null }> | null };

export type EventDetailQueryVariables = Exact<{
  slug: string;
}>;


export type EventDetailQuery = { eventBySlug: { id: string, event_slug: string, eventLink: string, title_nb: string | null, title_en: string | null, desc_nb: string | null, desc_en: string | null, startDate: string, endDate: string, startTime: string, duration: number | null, categories: Array<string>, mode: string, tags: Array<string>, ticketsInformation: string, ticketsURL: string | null, eventCancelled: boolean, eventSoldOut: boolean, isSuperEvent: boolean, superEventID: string | null, minimumAge: number | null, maximumAge: number | null, ageRestriction: string | null, publishingDate: string | null, ticketsFromDate: string | null, venue: { id: string, name: string, slug: string, address: string | null, postalCode: string | null, municipality: string | null, location: { latitude: number, longitude: number } | null } | null, organizers: Array<{ id: string, name: string, slug: string, website: string | null }>, images: Array<{ urlSmall: string, urlLarge: string, alt: string | null, focusX: number | null, focusY: number | null, width: number | null, height: number | null }>, prices: Array<{ type: string, price: number | null, name_nb: string | null, name_en: string | null }>, repetitions: Array<{ startDate: string, endDate: string, startTime: string, duration: number | null, eventCancelled: boolean, eventSoldOut: boolean, venue: { name: string, slug: string } | null, prices: Array<{ type: string, price: number | null, name_nb: string | null, name_en: string | null }> | null }> } | null };

export type EventDetailByIdQueryVariables = Exact<{
  id: string;
}>;


export type EventDetailByIdQuery = { eventByID: { id: string, event_slug: string, eventLink: string, title_nb: string | null, title_en: string | null, desc_nb: string | null, desc_en: string | null, startDate: string, endDate: string, startTime: string, duration: number | null, categories: Array<string>, mode: string, tags: Array<string>, ticketsInformation: string, ticketsURL: string | null, eventCancelled: boolean, eventSoldOut: boolean, isSuperEvent: boolean, superEventID: string | null, minimumAge: number | null, maximumAge: number | null, ageRestriction: string | null, publishingDate: string | null, ticketsFromDate: string | null, venue: { id: string, name: string, slug: string, address: string | null, postalCode: string | null, municipality: string | null, location: { latitude: number, longitude: number } | null } | null, organizers: Array<{ id: string, name: string, slug: string, website: string | null }>, images: Array<{ urlSmall: string, urlLarge: string, alt: string | null, focusX: number | null, focusY: number | null, width: number | null, height: number | null }>, prices: Array<{ type: string, price: number | null, name_nb: string | null, name_en: string | null }>, repetitions: Array<{ startDate: string, endDate: string, startTime: string, duration: number | null, eventCancelled: boolean, eventSoldOut: boolean, venue: { name: string, slug: string } | null, prices: Array<{ type: string, price: number | null, name_nb: string | null, name_en: string | null }> | null }> } | null };

export type EventDetailFieldsFragment = { id: string, event_slug: string, eventLink: string, title_nb: string | null, title_en: string | null, desc_nb: string | null, desc_en: string | null, startDate: string, endDate: string, startTime: string, duration: number | null, categories: Array<string>, mode: string, tags: Array<string>, ticketsInformation: string, ticketsURL: string | null, eventCancelled: boolean, eventSoldOut: boolean, isSuperEvent: boolean, superEventID: string | null, minimumAge: number | null, maximumAge: number | null, ageRestriction: string | null, publishingDate: string | null, ticketsFromDate: string | null, venue: { id: string, name: string, slug: string, address: string | null, postalCode: string | null, municipality: string | null, location: { latitude: number, longitude: number } | null } | null, organizers: Array<{ id: string, name: string, slug: string, website: string | null }>, images: Array<{ urlSmall: string, urlLarge: string, alt: string | null, focusX: number | null, focusY: number | null, width: number | null, height: number | null }>, prices: Array<{ type: string, price: number | null, name_nb: string | null, name_en: string | null }>, repetitions: Array<{ startDate: string, endDate: string, startTime: string, duration: number | null, eventCancelled: boolean, eventSoldOut: boolean, venue: { name: string, slug: string } | null, prices: Array<{ type: string, price: number | null, name_nb: string | null, name_en: string | null }> | null }> };

export type EventsPageQueryVariables = Exact<{
  filter?: Filter | null | undefined;
  page?: number | null | undefined;
  pageSize?: number | null | undefined;
}>;


export type EventsPageQuery = { events: { totalCount: number, hasMore: boolean, pageInfo: { currentPage: number, pageSize: number, totalPages: number }, data: Array<{ id: string, event_slug: string, eventLink: string, title_nb: string | null, title_en: string | null, startDate: string, endDate: string, startTime: string, duration: number | null, categories: Array<string>, mode: string, ticketsInformation: string, eventCancelled: boolean, eventSoldOut: boolean, venue: { id: string, name: string, slug: string } | null, images: Array<{ urlSmall: string, urlLarge: string, alt: string | null, focusX: number | null, focusY: number | null }>, prices: Array<{ type: string, price: number | null, name_nb: string | null, name_en: string | null }> }>, categories: Array<{ id: string, name_nb: string, name_en: string, hits: number }>, venues: Array<{ id: string, name: string, slug: string, hits: number }>, organizers: Array<{ id: string, name: string, slug: string, hits: number }> } | null };

export type UpcomingSuperEventsQueryVariables = Exact<{ [key: string]: never; }>;


export type UpcomingSuperEventsQuery = { allUpcomingSuperEvents: Array<{ id: string, event_slug: string, title_nb: string | null, title_en: string | null, startDate: string, endDate: string }> | null };

export type EventsInAreaQueryVariables = Exact<{
  minLatitude: number;
  maxLatitude: number;
  minLongitude: number;
  maxLongitude: number;
}>;


export type EventsInAreaQuery = { allUpcomingEventsInArea: Array<{ id: string, event_slug: string, title_nb: string | null, startDate: string, venue: { name: string, location: { latitude: number, longitude: number } | null } | null }> | null };

export type EventsBySlugsQueryVariables = Exact<{
  slugs: Array<string | null | undefined> | string;
}>;


export type EventsBySlugsQuery = { eventsBySlugs: Array<{ id: string, event_slug: string, title_nb: string | null, title_en: string | null, startDate: string }> | null };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const EventDetailFieldsFragmentDoc = new TypedDocumentString(`
    fragment EventDetailFields on Event {
  id
  event_slug
  eventLink
  title_nb
  title_en
  desc_nb
  desc_en
  startDate
  endDate
  startTime
  duration
  categories
  mode
  tags
  ticketsInformation
  ticketsURL
  eventCancelled
  eventSoldOut
  isSuperEvent
  superEventID
  minimumAge
  maximumAge
  ageRestriction
  publishingDate
  ticketsFromDate
  venue {
    id
    name
    slug
    address
    postalCode
    municipality
    location {
      latitude
      longitude
    }
  }
  organizers {
    id
    name
    slug
    website
  }
  images {
    urlSmall
    urlLarge
    alt
    focusX
    focusY
    width
    height
  }
  prices {
    type
    price
    name_nb
    name_en
  }
  repetitions {
    startDate
    endDate
    startTime
    duration
    eventCancelled
    eventSoldOut
    venue {
      name
      slug
    }
    prices {
      type
      price
      name_nb
      name_en
    }
  }
}
    `, {"fragmentName":"EventDetailFields"}) as unknown as TypedDocumentString<EventDetailFieldsFragment, unknown>;
export const CategoriesDocument = new TypedDocumentString(`
    query Categories {
  categories {
    id
    name_nb
    name_en
    slug_nb
    slug_en
    visible
    subCategories {
      id
      name_nb
      name_en
      slug_nb
      slug_en
      visible
    }
  }
}
    `, {"hash":"sha256:a1f2fd8896b49ca1cf8de2df42cb40de9ae52810dddaedaf2a1b302936a9b94d"}) as unknown as TypedDocumentString<CategoriesQuery, CategoriesQueryVariables>;
export const VenuesDocument = new TypedDocumentString(`
    query Venues {
  venues {
    id
    name
    slug
    address
    postalCode
    municipality
    location {
      latitude
      longitude
    }
  }
}
    `, {"hash":"sha256:23de51f27d7e23fa0bbd017e149a88f91680cd7ad4bb7783e07eddc2be8e640f"}) as unknown as TypedDocumentString<VenuesQuery, VenuesQueryVariables>;
export const OrganizersDocument = new TypedDocumentString(`
    query Organizers {
  organizers {
    id
    name
    slug
    website
  }
}
    `, {"hash":"sha256:c61953b856307d0af07c6be734d763f3a26fe1c70536bd1b02719b1e572eb6c1"}) as unknown as TypedDocumentString<OrganizersQuery, OrganizersQueryVariables>;
export const EventDetailDocument = new TypedDocumentString(`
    query EventDetail($slug: String!) {
  eventBySlug(eventSlug: $slug) {
    ...EventDetailFields
  }
}
    fragment EventDetailFields on Event {
  id
  event_slug
  eventLink
  title_nb
  title_en
  desc_nb
  desc_en
  startDate
  endDate
  startTime
  duration
  categories
  mode
  tags
  ticketsInformation
  ticketsURL
  eventCancelled
  eventSoldOut
  isSuperEvent
  superEventID
  minimumAge
  maximumAge
  ageRestriction
  publishingDate
  ticketsFromDate
  venue {
    id
    name
    slug
    address
    postalCode
    municipality
    location {
      latitude
      longitude
    }
  }
  organizers {
    id
    name
    slug
    website
  }
  images {
    urlSmall
    urlLarge
    alt
    focusX
    focusY
    width
    height
  }
  prices {
    type
    price
    name_nb
    name_en
  }
  repetitions {
    startDate
    endDate
    startTime
    duration
    eventCancelled
    eventSoldOut
    venue {
      name
      slug
    }
    prices {
      type
      price
      name_nb
      name_en
    }
  }
}`, {"hash":"sha256:5f4d4d75885683ff65428fe2715b63fd5f4f990858097f2dd6fe3aef6daedf35"}) as unknown as TypedDocumentString<EventDetailQuery, EventDetailQueryVariables>;
export const EventDetailByIdDocument = new TypedDocumentString(`
    query EventDetailById($id: String!) {
  eventByID(eventID: $id) {
    ...EventDetailFields
  }
}
    fragment EventDetailFields on Event {
  id
  event_slug
  eventLink
  title_nb
  title_en
  desc_nb
  desc_en
  startDate
  endDate
  startTime
  duration
  categories
  mode
  tags
  ticketsInformation
  ticketsURL
  eventCancelled
  eventSoldOut
  isSuperEvent
  superEventID
  minimumAge
  maximumAge
  ageRestriction
  publishingDate
  ticketsFromDate
  venue {
    id
    name
    slug
    address
    postalCode
    municipality
    location {
      latitude
      longitude
    }
  }
  organizers {
    id
    name
    slug
    website
  }
  images {
    urlSmall
    urlLarge
    alt
    focusX
    focusY
    width
    height
  }
  prices {
    type
    price
    name_nb
    name_en
  }
  repetitions {
    startDate
    endDate
    startTime
    duration
    eventCancelled
    eventSoldOut
    venue {
      name
      slug
    }
    prices {
      type
      price
      name_nb
      name_en
    }
  }
}`, {"hash":"sha256:809dca010151231827703e9fdb543f9b5ba872d29f2754216f1713e8b2a8eca6"}) as unknown as TypedDocumentString<EventDetailByIdQuery, EventDetailByIdQueryVariables>;
export const EventsPageDocument = new TypedDocumentString(`
    query EventsPage($filter: Filter, $page: Int, $pageSize: Int) {
  events(filter: $filter, page: $page, pageSize: $pageSize) {
    totalCount
    hasMore
    pageInfo {
      currentPage
      pageSize
      totalPages
    }
    data {
      id
      event_slug
      eventLink
      title_nb
      title_en
      startDate
      endDate
      startTime
      duration
      categories
      mode
      ticketsInformation
      eventCancelled
      eventSoldOut
      venue {
        id
        name
        slug
      }
      images {
        urlSmall
        urlLarge
        alt
        focusX
        focusY
      }
      prices {
        type
        price
        name_nb
        name_en
      }
    }
    categories {
      id
      name_nb
      name_en
      hits
    }
    venues {
      id
      name
      slug
      hits
    }
    organizers {
      id
      name
      slug
      hits
    }
  }
}
    `, {"hash":"sha256:6166b4fc77c77c8a76830b62351616363fea199d1ede34b3cc3d620c2d094840"}) as unknown as TypedDocumentString<EventsPageQuery, EventsPageQueryVariables>;
export const UpcomingSuperEventsDocument = new TypedDocumentString(`
    query UpcomingSuperEvents {
  allUpcomingSuperEvents {
    id
    event_slug
    title_nb
    title_en
    startDate
    endDate
  }
}
    `, {"hash":"sha256:48f4dcc86fabc1071d0a4fcd903d476432b79f0a8df62bc005c1c0af900174e4"}) as unknown as TypedDocumentString<UpcomingSuperEventsQuery, UpcomingSuperEventsQueryVariables>;
export const EventsInAreaDocument = new TypedDocumentString(`
    query EventsInArea($minLatitude: Float!, $maxLatitude: Float!, $minLongitude: Float!, $maxLongitude: Float!) {
  allUpcomingEventsInArea(
    minLatitude: $minLatitude
    maxLatitude: $maxLatitude
    minLongitude: $minLongitude
    maxLongitude: $maxLongitude
  ) {
    id
    event_slug
    title_nb
    startDate
    venue {
      name
      location {
        latitude
        longitude
      }
    }
  }
}
    `, {"hash":"sha256:cc377288a3a0a31c0248812f1d865f8da25ad1eb970b54e2a7aae98addf5c658"}) as unknown as TypedDocumentString<EventsInAreaQuery, EventsInAreaQueryVariables>;
export const EventsBySlugsDocument = new TypedDocumentString(`
    query EventsBySlugs($slugs: [String]!) {
  eventsBySlugs(eventsSlugs: $slugs) {
    id
    event_slug
    title_nb
    title_en
    startDate
  }
}
    `, {"hash":"sha256:312b9812fce383a5fbad55399c24f08ae255aae2d8eaad24a94186c911d36e92"}) as unknown as TypedDocumentString<EventsBySlugsQuery, EventsBySlugsQueryVariables>;