export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
};

/** An event category of this licence. Ids differ between licences. */
export type Category = {
  __typename?: 'Category';
  /** Category id, as used on `Event.categories` and in `Filter.categories`. */
  id: Scalars['String']['output'];
  /** English label. */
  name_en: Scalars['String']['output'];
  /** Norwegian label. */
  name_nb: Scalars['String']['output'];
  /** English slug. */
  slug_en: Scalars['String']['output'];
  /** Norwegian slug. */
  slug_nb: Scalars['String']['output'];
  /** Sub-categories of this category. */
  subCategories: Array<Category>;
  /** False for hidden categories; their ids stay valid on events and in filters. */
  visible: Scalars['Boolean']['output'];
};

/** A category facet entry. */
export type CategoryFacet = {
  __typename?: 'CategoryFacet';
  /** Number of nodes of the whole filtered result in this category. */
  hits: Scalars['Int']['output'];
  /** Category id. */
  id: Scalars['String']['output'];
  /** English label. */
  name_en: Scalars['String']['output'];
  /** Norwegian label. */
  name_nb: Scalars['String']['output'];
  /** English slug. */
  slug_en: Scalars['String']['output'];
  /** Norwegian slug. */
  slug_nb: Scalars['String']['output'];
  /** Whether the category is visible. */
  visible: Scalars['Boolean']['output'];
};

/** One event: one record with one `id`, even when it has several dates. Date fields show its promoted (next matching) date. */
export type Event = {
  __typename?: 'Event';
  /** Tickets offered through registration, or null. */
  activeTickets: Maybe<Scalars['Int']['output']>;
  /** The organizer's free-text age note (for example `18 år`), or null. */
  ageRestriction: Maybe<Scalars['String']['output']>;
  /** Tickets still available through registration, or null. Null does not mean sold out. */
  availableTickets: Maybe<Scalars['Int']['output']>;
  /** Cancellation period, or null. */
  cancellationPeriod: Maybe<Scalars['Int']['output']>;
  /** Category ids (not labels). */
  categories: Array<Scalars['String']['output']>;
  /** Bookkeeping: when the record was created. */
  created_at: Maybe<Scalars['String']['output']>;
  /** English description; may hold simple HTML. */
  desc_en: Maybe<Scalars['String']['output']>;
  /** Norwegian description; may hold simple HTML. */
  desc_nb: Maybe<Scalars['String']['output']>;
  /** Kilometres from the `Filter.near` point to the venue of the promoted date, rounded to 10 metres (two decimals). Null without `near`. */
  distanceKm: Maybe<Scalars['Float']['output']>;
  /** Duration in minutes, or null. */
  duration: Maybe<Scalars['Int']['output']>;
  /** End of the promoted date, same format. Equals `startDate` when the event has no end time. */
  endDate: Scalars['String']['output'];
  /** Whether the promoted date is cancelled. */
  eventCancelled: Scalars['Boolean']['output'];
  /** Full URL of the event page. */
  eventLink: Scalars['String']['output'];
  /** The organizer's explicit sold-out flag for the promoted date. */
  eventSoldOut: Scalars['Boolean']['output'];
  /** URL segment; the last segment of `eventLink`. */
  event_slug: Scalars['String']['output'];
  /** Whether the organizer featured this event. */
  featured: Scalars['Boolean']['output'];
  /** Identity of the event for its whole life. */
  id: Scalars['String']['output'];
  /** Images in order; the first is the cover image. */
  images: Array<Image>;
  /** Whether this is a container event (festival, market) with a programme of its own. */
  isSuperEvent: Scalars['Boolean']['output'];
  /**
   * schema.org `Event` as JSON-LD (a JSON string) for the promoted date, following Google's event rich-result
   * rules: name, startDate/endDate with offset, eventStatus, eventAttendanceMode, location (Place with
   * PostalAddress and geo, or VirtualLocation for online events), image, offers, organizer, url, description.
   * `<` is written as `\u003c`, so the string can go straight into a `<script type="application/ld+json">`.
   */
  jsonLd: Maybe<Scalars['String']['output']>;
  /** Last date for booking through registration, or null. */
  maxBookingDate: Maybe<Scalars['String']['output']>;
  /** Last time of day for booking through registration, or null. */
  maxBookingTime: Maybe<Scalars['String']['output']>;
  /** Maximum age, or null. */
  maximumAge: Maybe<Scalars['Int']['output']>;
  /** Minimum age, or null. */
  minimumAge: Maybe<Scalars['Int']['output']>;
  /** `online` or `offline`. */
  mode: Scalars['String']['output'];
  /** The organizers, in the order the event lists them. */
  organizers: Array<Organizer>;
  /** Payment method for registration, or null. */
  paymentMethod: Maybe<Scalars['String']['output']>;
  /** Ticket prices; meaningful only when `ticketsInformation` is `ticketsInfo`. */
  prices: Array<Price>;
  /** When the event was (or is) published; same format and offset rule as `startDate`. */
  publishingDate: Maybe<Scalars['String']['output']>;
  /** Whether visitors register through the calendar. False on a calendar without registration. */
  registrationEnabled: Scalars['Boolean']['output'];
  /** The event's later dates that have not ended (after the promoted one). */
  repetitions: Array<Repetition>;
  /** Start of the promoted date, `YYYY-MM-DD HH:mm:ss±HH:MM` with Oslo's offset on that date. */
  startDate: Scalars['String']['output'];
  /** `HH:mm`, Norwegian wall-clock start exactly as the organizer entered it. */
  startTime: Scalars['String']['output'];
  /** Id of the container event whose programme this event belongs to, or null. */
  superEventID: Maybe<Scalars['String']['output']>;
  /** Keywords; filter on one with `Filter.tag`. */
  tags: Array<Scalars['String']['output']>;
  /** When ticket sales open; same format and offset rule as `startDate`. */
  ticketsFromDate: Maybe<Scalars['String']['output']>;
  /** Which of `free`, `noTicketsInfo`, `ticketsInfo` applies. */
  ticketsInformation: Scalars['String']['output'];
  /** Where tickets are sold, when sold elsewhere (for the promoted date). */
  ticketsURL: Maybe<Scalars['String']['output']>;
  /** English title (presentation only). */
  title_en: Maybe<Scalars['String']['output']>;
  /** Norwegian title (presentation only). */
  title_nb: Maybe<Scalars['String']['output']>;
  /** Bookkeeping: when the record was last changed. */
  updated_at: Maybe<Scalars['String']['output']>;
  /** Venue of the promoted date. */
  venue: Maybe<Venue>;
  /** View count, or null. */
  views: Maybe<Scalars['Int']['output']>;
};


/** One event: one record with one `id`, even when it has several dates. Date fields show its promoted (next matching) date. */
export type EventJsonLdArgs = {
  lan?: InputMaybe<Scalars['String']['input']>;
};

/**
 * One page of `changes`. Apply it to a mirror keyed by `id`: put every `changed` event (replacing the
 * one held), delete every `removedIds` entry; the mirror then holds what `events` shows (without a
 * filter) as of the sync.
 */
export type EventChanges = {
  __typename?: 'EventChanges';
  /**
   * Events created or changed since the cursor, or whose next date moved (a date ended: the next one
   * is promoted, exactly as `eventByID` returns it). Only events `events` shows now: published, with
   * a date that has not ended.
   */
  changed: Array<Event>;
  /** Opaque; pass it as `since` to get the next page, and keep the last one for the next sync. */
  cursor: Scalars['String']['output'];
  /** True when the next page may hold more changes: call again with `since: cursor` at once. */
  hasMore: Scalars['Boolean']['output'];
  /**
   * Ids to delete from the mirror: events removed from the calendar (`import --replace`), no longer
   * published, or whose last date has ended since the cursor. An id the mirror does not hold is ignored.
   */
  removedIds: Array<Scalars['String']['output']>;
};

/** One page of `events` with totals and facets over the whole filtered result. */
export type EventConnection = {
  __typename?: 'EventConnection';
  /** Categories of the whole filtered result, most hits first. */
  categories: Array<CategoryFacet>;
  /** The events of the requested page. */
  data: Array<Event>;
  /** True when page + 1 has content. */
  hasMore: Scalars['Boolean']['output'];
  /** Organizers of the whole filtered result, most hits first. */
  organizers: Array<OrganizerFacet>;
  /** Paging information. */
  pageInfo: PageInfo;
  /** Number of nodes matching the filter across all pages. */
  totalCount: Scalars['Int']['output'];
  /** Venues of the whole filtered result, most hits first. */
  venues: Array<VenueFacet>;
};

/**
 * Conditions on the `events` query. All fields are optional; every given condition must hold.
 * Date arguments: `YYYY-MM-DD HH:mm:ss` followed by `+HH:MM`, `+HHMM`, `+HH` or `Z` (a `T` may replace the space;
 * without an offset the time is read as Europe/Oslo wall-clock time).
 */
export type Filter = {
  /** Remove cancelled dates and events. */
  cancelledNotIncluded?: InputMaybe<Scalars['Boolean']['input']>;
  /** Category ids; any may match. An empty list means all. */
  categories?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  /** Events still going on at or after this moment: not yet ended, or (without an end time) started less than three hours before. Default: now. */
  fromDate?: InputMaybe<Scalars['String']['input']>;
  /** Events that start at or after this moment (excludes ongoing ones). */
  fromStartDate?: InputMaybe<Scalars['String']['input']>;
  /** One node per event and Oslo calendar day with a matching date; the same day's other dates stay in that node's `repetitions`. */
  groupRepetitionsByDay?: InputMaybe<Scalars['Boolean']['input']>;
  /** `HH:mm-HH:mm`: dates whose Oslo wall-clock start lies in the window (start inclusive, end exclusive; may wrap past midnight). */
  hoursRange?: InputMaybe<Scalars['String']['input']>;
  /** `online` or `offline`. */
  mode?: InputMaybe<Scalars['String']['input']>;
  /** The venue's municipality (case-insensitive). */
  municipality?: InputMaybe<Scalars['String']['input']>;
  /** Only dates whose venue lies within `radiusKm` of a point (great-circle distance). Dates without a venue location are left out. Each node then carries `distanceKm`; the order stays chronological. */
  near?: InputMaybe<NearFilter>;
  /** Category ids to exclude. */
  notCategories?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  /** Only events featured by the organizer. */
  onlyFeatured?: InputMaybe<Scalars['Boolean']['input']>;
  /** Only events featured in the licence's special event. */
  onlyFeaturedSpecialEvent?: InputMaybe<Scalars['Boolean']['input']>;
  /** One organizer slug. */
  organizerSlug?: InputMaybe<Scalars['String']['input']>;
  /** Organizer slugs; any may match. */
  organizers?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  /** Postal codes of the venue's address; any may match. */
  postalCodes?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  /** Free text, case- and accent-insensitive, over titles, descriptions, tags, venue, organizer and category names. Falls back to approximate matching of titles and descriptions when nothing matches literally. */
  searchTerm?: InputMaybe<Scalars['String']['input']>;
  /** Remove sold-out dates and events. */
  soldOutNotIncluded?: InputMaybe<Scalars['Boolean']['input']>;
  /**
   * Has no effect: results are always chronological.
   * @deprecated Results are always chronological; this field is ignored.
   */
  sortBy?: InputMaybe<Scalars['String']['input']>;
  /** Id of a container event: returns its programme. */
  superEvent?: InputMaybe<Scalars['String']['input']>;
  /** One keyword from `Event.tags`. */
  tag?: InputMaybe<Scalars['String']['input']>;
  /** Events that start before this moment. */
  untilDate?: InputMaybe<Scalars['String']['input']>;
  /** One venue slug. */
  venueSlug?: InputMaybe<Scalars['String']['input']>;
  /** Venue slugs; any may match. */
  venues?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  /** A window of Oslo time resolved at request time (see `WhenPreset`). Cannot be combined with `fromDate` or `untilDate`. */
  when?: InputMaybe<WhenPreset>;
};

/** A picture of the event. */
export type Image = {
  __typename?: 'Image';
  /** Alternative text. */
  alt: Maybe<Scalars['String']['output']>;
  /** Horizontal focus point as a fraction of the width (0 left, 1 right); null until analysed or when no face was found. */
  focusX: Maybe<Scalars['Float']['output']>;
  /** Vertical focus point as a fraction of the height (0 top, 1 bottom); null until analysed or when no face was found. */
  focusY: Maybe<Scalars['Float']['output']>;
  /** Pixel height of `urlLarge`; null until analysed. */
  height: Maybe<Scalars['Int']['output']>;
  /** Large rendition. */
  urlLarge: Scalars['String']['output'];
  /** Small rendition. */
  urlSmall: Scalars['String']['output'];
  /** Pixel width of `urlLarge`; null until analysed. */
  width: Maybe<Scalars['Int']['output']>;
};

/** Geographic coordinates (WGS 84). */
export type Location = {
  __typename?: 'Location';
  /** Latitude in degrees. */
  latitude: Scalars['Float']['output'];
  /** Longitude in degrees. */
  longitude: Scalars['Float']['output'];
};

/** A point and a radius for `Filter.near`. */
export type NearFilter = {
  /** Latitude of the point in degrees (WGS 84), from -90 to 90. */
  latitude: Scalars['Float']['input'];
  /** Longitude of the point in degrees (WGS 84), from -180 to 180. */
  longitude: Scalars['Float']['input'];
  /** Radius in kilometres: greater than 0 and at most 1000. A venue exactly at the radius is inside. */
  radiusKm: Scalars['Float']['input'];
};

/** Someone who arranges events. */
export type Organizer = {
  __typename?: 'Organizer';
  /** Organizer id. */
  id: Scalars['String']['output'];
  /** Name. */
  name: Scalars['String']['output'];
  /** Organizer slug; the `events` filter takes this. */
  slug: Scalars['String']['output'];
  /** Web site, or null. */
  website: Maybe<Scalars['String']['output']>;
};

/** An organizer facet entry. */
export type OrganizerFacet = {
  __typename?: 'OrganizerFacet';
  /** Number of nodes of the whole filtered result by this organizer. */
  hits: Scalars['Int']['output'];
  /** Organizer id. */
  id: Scalars['String']['output'];
  /** Name. */
  name: Scalars['String']['output'];
  /** Organizer slug. */
  slug: Scalars['String']['output'];
  /** Web site, or null. */
  website: Maybe<Scalars['String']['output']>;
};

/** Paging information of an `events` page. */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** The zero-based page returned. */
  currentPage: Scalars['Int']['output'];
  /** The page size used. */
  pageSize: Scalars['Int']['output'];
  /** Number of pages across the whole result. */
  totalPages: Scalars['Int']['output'];
};

/** One ticket type and its price. */
export type Price = {
  __typename?: 'Price';
  /** English label. */
  name_en: Maybe<Scalars['String']['output']>;
  /** Norwegian label. */
  name_nb: Maybe<Scalars['String']['output']>;
  /** Whole price as the organizer meant it, rounded; null when the stored input cannot be read as a number. Never divide it. */
  price: Maybe<Scalars['Int']['output']>;
  /** Ticket type id: a built-in one (ASSISTANT, CHILD, FAMILY, MEMBERS, REGULAR, REDUCED, SENIOR, STUDENT) or organizer-defined. */
  type: Scalars['String']['output'];
};

/** The root of every read. */
export type Query = {
  __typename?: 'Query';
  /** Upcoming events whose venue lies inside the box (edges included), in chronological order. */
  allUpcomingEventsInArea: Maybe<Array<Event>>;
  /** Container events (festivals, markets) that have not yet ended, in chronological order. */
  allUpcomingSuperEvents: Maybe<Array<Event>>;
  /** This licence's categories with ids, labels, slugs, sub-categories and `visible`. Hidden ones included; retired ones are gone. */
  categories: Maybe<Array<Category>>;
  /**
   * Change sync: what changed in the calendar `events` shows since the cursor `since`, a page at a
   * time, so that a client can keep a mirror without downloading everything again (docs/change-sync.md).
   * Without `since`: a full sync's first page (every event `events` shows now). Keep calling with
   * `since: cursor` while `hasMore`; store the last `cursor` and start there next time. A cursor older
   * than 90 days, or one this calendar does not know, answers `BAD_USER_INPUT` with
   * `extensions.reason: "RESYNC_REQUIRED"`: throw the mirror away and sync again without `since`.
   */
  changes: EventChanges;
  /** One event by its `id`, with its next still-valid date promoted. Null when unknown, unpublished or entirely past. */
  eventByID: Maybe<Event>;
  /** One event by its `event_slug`, with its next still-valid date promoted. Null when unknown, unpublished or entirely past. */
  eventBySlug: Maybe<Event>;
  /** One event by its exact title (case-sensitive, as stored). When several share it, the next upcoming one. */
  eventByTitle: Maybe<Event>;
  /**
   * Events matching `filter`, in chronological order of their next matching date, one page at a time.
   * Read totals from the connection (`totalCount`, `pageInfo`), not from the length of `data`.
   */
  events: Maybe<EventConnection>;
  /** Several events by slug, in the order the slugs were given. Unknown slugs are skipped. */
  eventsBySlugs: Maybe<Array<Event>>;
  /** The organizer catalogue, sorted by name (Norwegian collation). */
  organizers: Maybe<Array<Organizer>>;
  /**
   * Typeahead: venues, organizers, categories, tags and events whose names start with what a reader has
   * typed, each with how many results it leads to under `filter`, so the busiest come first
   * (docs/using-the-api.md, "Typeahead"). Every word of `prefix` must start a word of a suggestion's
   * Norwegian or English label, its slug or its tag, ignoring case and accents as `searchTerm` does. When
   * nothing matches and a word of the prefix has 4 or more characters, one typo in that word is tolerated
   * (a letter wrong, missing, extra, or two swapped). Ranked by match quality (the prefix starts a label's
   * first word before an inner word), then `hits` (most first), then label. Suggestions without hits are
   * left out. An empty or whitespace-only `prefix`, one over 100 characters, or a `limit` outside 1–50
   * answers `BAD_USER_INPUT` naming the argument.
   */
  suggest: Array<Suggestion>;
  /** The venue catalogue, sorted by name (Norwegian collation). */
  venues: Maybe<Array<Venue>>;
};


/** The root of every read. */
export type QueryAllUpcomingEventsInAreaArgs = {
  maxLatitude?: InputMaybe<Scalars['Float']['input']>;
  maxLongitude?: InputMaybe<Scalars['Float']['input']>;
  minLatitude?: InputMaybe<Scalars['Float']['input']>;
  minLongitude?: InputMaybe<Scalars['Float']['input']>;
};


/** The root of every read. */
export type QueryChangesArgs = {
  pageSize?: InputMaybe<Scalars['Int']['input']>;
  since?: InputMaybe<Scalars['String']['input']>;
};


/** The root of every read. */
export type QueryEventByIdArgs = {
  eventID: Scalars['String']['input'];
};


/** The root of every read. */
export type QueryEventBySlugArgs = {
  eventSlug: Scalars['String']['input'];
};


/** The root of every read. */
export type QueryEventByTitleArgs = {
  lan: Scalars['String']['input'];
  title: Scalars['String']['input'];
};


/** The root of every read. */
export type QueryEventsArgs = {
  filter?: InputMaybe<Filter>;
  page?: InputMaybe<Scalars['Int']['input']>;
  pageSize?: InputMaybe<Scalars['Int']['input']>;
};


/** The root of every read. */
export type QueryEventsBySlugsArgs = {
  eventsSlugs: Array<InputMaybe<Scalars['String']['input']>>;
};


/** The root of every read. */
export type QuerySuggestArgs = {
  filter?: InputMaybe<Filter>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  prefix: Scalars['String']['input'];
};

/** Another date of the same event. */
export type Repetition = {
  __typename?: 'Repetition';
  /** Duration in minutes, or null. */
  duration: Maybe<Scalars['Int']['output']>;
  /** End, same format; equals `startDate` when there is no end time. */
  endDate: Scalars['String']['output'];
  /** Whether this date is cancelled. */
  eventCancelled: Scalars['Boolean']['output'];
  /** Whether this date is sold out. */
  eventSoldOut: Scalars['Boolean']['output'];
  /** Prices for this date; null means the event's `prices` apply. */
  prices: Maybe<Array<Price>>;
  /** Start, `YYYY-MM-DD HH:mm:ss±HH:MM` with Oslo's offset on that date. */
  startDate: Scalars['String']['output'];
  /** `HH:mm`, wall-clock start as the organizer entered it. */
  startTime: Scalars['String']['output'];
  /** Where tickets for this date are sold, or null. */
  ticketsURL: Maybe<Scalars['String']['output']>;
  /** Venue of this date. */
  venue: Maybe<Venue>;
};

/** One typeahead suggestion of `suggest`. */
export type Suggestion = {
  __typename?: 'Suggestion';
  /**
   * Exactly the `totalCount` of `events(filter: { ...filter, <condition> })`, where the condition sets this
   * kind's `Filter` field (`venueSlug`, `organizerSlug`, `categories: [value]`, `tag`) to `value`, replacing
   * whatever `filter` gave that field. 1 for an event: listed once if it has a date under `filter` (however
   * many dates or days it has there).
   */
  hits: Scalars['Int']['output'];
  /** What it stands for. */
  kind: SuggestionKind;
  /** English label: a venue's, organizer's or tag's name as it is, a category's `name_en`, an event's `title_en` (null when it has none). */
  label_en: Maybe<Scalars['String']['output']>;
  /** Norwegian label: a venue's, organizer's or tag's name as it is, a category's `name_nb`, an event's `title_nb`. */
  label_nb: Maybe<Scalars['String']['output']>;
  /** What the `events` filter (or, for an event, `eventBySlug`) takes: see `SuggestionKind`. */
  value: Scalars['String']['output'];
};

/** What a suggestion stands for, and so which condition its `value` is for. */
export type SuggestionKind =
  /** A visible category: `value` is its id, for `Filter.categories`. */
  | 'CATEGORY'
  /** One event: `value` is its `event_slug`, for `eventBySlug` (or its page under `eventLink`). */
  | 'EVENT'
  /** An organizer: `value` is its slug, for `Filter.organizerSlug`. */
  | 'ORGANIZER'
  /** A keyword of `Event.tags`: `value` is the tag as events carry it, for `Filter.tag`. */
  | 'TAG'
  /** A venue: `value` is its slug, for `Filter.venueSlug`. */
  | 'VENUE';

/** A place where events happen. */
export type Venue = {
  __typename?: 'Venue';
  /** Street address. */
  address: Maybe<Scalars['String']['output']>;
  /** Venue id. */
  id: Scalars['String']['output'];
  /** Coordinates, or null. */
  location: Maybe<Location>;
  /** Municipality. */
  municipality: Maybe<Scalars['String']['output']>;
  /** Name. */
  name: Scalars['String']['output'];
  /** Postal code. */
  postalCode: Maybe<Scalars['String']['output']>;
  /** Venue slug; the `events` filter takes this. */
  slug: Scalars['String']['output'];
};

/** A venue facet entry: the venue and how many nodes of the filtered result are there. */
export type VenueFacet = {
  __typename?: 'VenueFacet';
  /** Street address. */
  address: Maybe<Scalars['String']['output']>;
  /** Number of nodes of the whole filtered result at this venue. */
  hits: Scalars['Int']['output'];
  /** Venue id. */
  id: Scalars['String']['output'];
  /** Coordinates, or null. */
  location: Maybe<Location>;
  /** Municipality. */
  municipality: Maybe<Scalars['String']['output']>;
  /** Name. */
  name: Scalars['String']['output'];
  /** Postal code. */
  postalCode: Maybe<Scalars['String']['output']>;
  /** Venue slug. */
  slug: Scalars['String']['output'];
};

/**
 * Windows of Oslo time for `Filter.when`, resolved in Europe/Oslo at request time (exact across DST changes).
 * Each acts as a `fromDate` (with its "still going on" rule) and an `untilDate` (dates that start before).
 * A cached answer never outlives its window.
 */
export type WhenPreset =
  /** Today and the next six calendar days: from now until the Oslo midnight that ends the sixth day after today. */
  | 'NEXT_7_DAYS'
  /** From now until the first midnight of next month, Oslo time. */
  | 'THIS_MONTH'
  /** From Friday 17:00 until Monday 00:00 of this ISO week (Monday to Sunday): the coming weekend on Monday to Friday, the current one during it. */
  | 'THIS_WEEKEND'
  /** From now until the next Oslo midnight. */
  | 'TODAY'
  /** From the next Oslo midnight until the one after. */
  | 'TOMORROW'
  /** From 17:00 today until 05:00 tomorrow; between midnight and 05:00, the night already under way (17:00 yesterday until 05:00 today). */
  | 'TONIGHT';
