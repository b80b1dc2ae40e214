import type { ColumnType, Generated, Selectable } from 'kysely';
import type { EVENT_FIELDS, ORGANIZER_FIELDS, VENUE_FIELDS } from '../fields/calendar-fields.js';
import type { StoredColumns } from '../fields/field-declaration.js';

/** Raw organizer price input, stored as given (string or number). */
export interface StoredPrice {
  type: string;
  price: string | number | null;
  name_nb?: string | null;
  name_en?: string | null;
}

export interface StoredImage {
  urlSmall: string;
  urlLarge: string;
  alt: string | null;
  focusX: number | null;
  focusY: number | null;
  width: number | null;
  height: number | null;
}

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;
/** count(*) and bigint come back as strings from `pg` and numbers from PGlite. */
type BigIntColumn = ColumnType<string | number, number | bigint, number | bigint>;

export interface CategoriesTable {
  id: string;
  name_nb: string;
  name_en: string;
  slug_nb: string;
  slug_en: string;
  visible: Generated<boolean>;
  parent_id: string | null;
  position: Generated<number>;
}

export interface RetiredCategoriesTable {
  id: string;
  replaced_by: string[];
  retired_at: Generated<Date>;
}

/** The stored fields' columns are declared in src/fields/calendar-fields.ts; the rest are the keys with rules of their own. */
export interface VenuesTable extends StoredColumns<typeof VENUE_FIELDS> {
  latitude: number | null;
  longitude: number | null;
}

export type OrganizersTable = StoredColumns<typeof ORGANIZER_FIELDS>;

export interface EventsTable extends StoredColumns<typeof EVENT_FIELDS> {
  venue_id: string | null;
  tickets_url: string | null;
  prices: Json<StoredPrice[]>;
  images: Json<StoredImage[]>;
  event_cancelled: boolean;
  event_sold_out: boolean;
  publishing_date: Timestamp | null;
  tickets_from_date: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  search_text: string;
  last_ends_at: Timestamp;
}

export interface EventCategoriesTable {
  event_id: string;
  category_id: string;
  position: number;
}

export interface EventOrganizersTable {
  event_id: string;
  organizer_id: string;
  position: number;
}

export interface OccurrencesTable {
  /** bigserial: a string from `pg`, a number from PGlite; never written by us. */
  id: ColumnType<string | number, never, never>;
  event_id: string;
  position: number;
  start_at: Timestamp;
  end_at: Timestamp | null;
  ends_at: Timestamp;
  start_time: string;
  local_minute: number;
  /** Oslo calendar day of the start, `YYYY-MM-DD`. */
  local_day: string;
  duration: number | null;
  venue_id: string | null;
  tickets_url: string | null;
  cancelled: boolean;
  sold_out: boolean;
  prices: Json<StoredPrice[] | null> | null;
  /** The event's publishing date, copied here so that "not yet published" filters the date itself. */
  publishing_date: Timestamp | null;
}

/** One row: the data version, raised by every import. */
export interface CalendarStateTable {
  singleton: Generated<boolean>;
  version: ColumnType<string | number, never, string | number>;
}

/**
 * Change sync: per event id, the data version that last changed what the API shows of it; `removed`
 * rows are tombstones (docs/change-sync.md).
 */
export interface EventChangesTable {
  event_id: string;
  version: ColumnType<string | number, number | bigint | string, number | bigint | string>;
  removed: Generated<boolean>;
  content_hash: string | null;
  changed_at: Generated<Date>;
}

/** CDN purging: per data version an import committed, what it changed besides events, and whether the edges were purged for it. */
export interface DataVersionPurgesTable {
  version: ColumnType<string | number, number | bigint | string, never>;
  committed_at: ColumnType<Date, never, never>;
  venues_changed: boolean;
  organizers_changed: boolean;
  categories_changed: boolean;
  purge_claimed_at: ColumnType<Date | null, never, never>;
  purged_at: ColumnType<Date | null, never, never>;
}

export interface ApiKeysTable {
  key_hash: string;
  key_prefix: string;
  application: string;
  revoked: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface UsageCountsTable {
  day: ColumnType<Date | string, string, string>;
  key_hash: string;
  client_id: string;
  page_origin: string;
  requests: BigIntColumn;
}

export interface CallerCostsTable {
  day: ColumnType<Date | string, string, string>;
  /** `key:<hash>`, `address:<address>` or `(other)`. */
  caller: string;
  /** The key's hash for a keyed caller, else ''. */
  key_hash: string;
  points: BigIntColumn;
  executions: BigIntColumn;
  refused: BigIntColumn;
}

/** Requests of one Oslo day by one caller that used one deprecated schema coordinate (`Filter.sortBy`). */
export interface DeprecatedUsesTable {
  day: ColumnType<Date | string, string, string>;
  coordinate: string;
  key_hash: string;
  client_id: string;
  page_origin: string;
  requests: BigIntColumn;
}

/** Kysely's view of our schema. */
export interface Database {
  categories: CategoriesTable;
  retired_categories: RetiredCategoriesTable;
  venues: VenuesTable;
  organizers: OrganizersTable;
  events: EventsTable;
  event_categories: EventCategoriesTable;
  event_organizers: EventOrganizersTable;
  occurrences: OccurrencesTable;
  calendar_state: CalendarStateTable;
  event_changes: EventChangesTable;
  data_version_purges: DataVersionPurgesTable;
  api_keys: ApiKeysTable;
  usage_counts: UsageCountsTable;
  caller_costs: CallerCostsTable;
  deprecated_uses: DeprecatedUsesTable;
}

export type CategoryRow = Selectable<CategoriesTable>;
export type VenueRow = Selectable<VenuesTable>;
export type OrganizerRow = Selectable<OrganizersTable>;
export type EventRow = Selectable<EventsTable>;
export type OccurrenceRow = Selectable<OccurrencesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

/** What responses read of an event: every column but the folded search text. */
export type EventFields = Omit<EventRow, 'search_text'>;

/** An event's fields with the ids of its categories and organizers, in the event's own order. */
export interface EventRecord extends EventFields {
  category_ids: string[];
  organizer_ids: string[];
}
