import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../src/db/database.js';

/**
 * The `events` rules written as the plainest SQL we could write, for comparing the read model's
 * answers with: every date that satisfies every condition, the first per event (or per event and
 * Oslo day), ordered by start then event id. Slow and obviously right, on purpose.
 */
export interface ReferenceFilter {
  now: Date;
  fromDate?: Date;
  untilDate?: Date;
  fromStartDate?: Date;
  categories?: string[];
  notCategories?: string[];
  venues?: string[];
  organizers?: string[];
  tag?: string;
  mode?: 'online' | 'offline';
  onlyFeatured?: boolean;
  cancelledNotIncluded?: boolean;
  soldOutNotIncluded?: boolean;
  /** Minutes of the Oslo day, start inclusive, end exclusive; wraps past midnight when start > end. */
  hours?: { start: number; end: number };
  municipality?: string;
  postalCodes?: string[];
  /** Folded words that must each match literally (event text, organizer, category or the date's venue). */
  words?: string[];
  groupByDay?: boolean;
  /** The date's venue lies within `radiusKm` of the point (haversine, written out in SQL below). */
  near?: { latitude: number; longitude: number; radiusKm: number };
}

export interface ReferenceNode {
  eventId: string;
  startMs: number;
  venueId: string | null;
  /** With `near`: km from the point to the date's venue, unrounded; else null. */
  distanceKm: number | null;
}

/**
 * A `Filter.when` preset's window at `now` as `fromDate` and `untilDate`, computed by PostgreSQL's own
 * time zone rules (not luxon's): wall-clock arithmetic on Oslo's local time, then back to instants.
 */
export async function referenceWhenWindow(db: Kysely<Database>, preset: string, now: Date): Promise<{ fromDate: Date; untilDate: Date }> {
  const local = sql`(${now.toISOString()}::timestamptz at time zone 'Europe/Oslo')`;
  const day = sql`date_trunc('day', ${local})`;
  const evening = sql`(case when extract(hour from ${local}) < 5 then ${day} - interval '1 day' else ${day} end)`;
  const monday = sql`(${day} - (extract(isodow from ${local})::int - 1) * interval '1 day')`;
  const bounds: Record<string, [RawBuilder<unknown>, RawBuilder<unknown>]> = {
    TODAY: [day, sql`${day} + interval '1 day'`],
    TONIGHT: [sql`${evening} + interval '17 hours'`, sql`${evening} + interval '1 day 5 hours'`],
    TOMORROW: [sql`${day} + interval '1 day'`, sql`${day} + interval '2 days'`],
    THIS_WEEKEND: [sql`${monday} + interval '4 days 17 hours'`, sql`${monday} + interval '7 days'`],
    NEXT_7_DAYS: [day, sql`${day} + interval '7 days'`],
    THIS_MONTH: [sql`date_trunc('month', ${local})`, sql`date_trunc('month', ${local}) + interval '1 month'`],
  };
  const [from, until] = bounds[preset]!;
  const { rows } = await sql<{ from_ms: number; until_ms: number }>`
    select date_part('epoch', (${from}) at time zone 'Europe/Oslo') * 1000 as from_ms,
           date_part('epoch', (${until}) at time zone 'Europe/Oslo') * 1000 as until_ms`.execute(db);
  return { fromDate: new Date(Number(rows[0]!.from_ms)), untilDate: new Date(Number(rows[0]!.until_ms)) };
}

/** Great-circle km from a point to the venue row `v` (haversine on a sphere of radius 6371.0088 km), in SQL. */
function haversineSql(point: { latitude: number; longitude: number }): RawBuilder<number> {
  const lat = sql`${point.latitude}::float8`;
  const lon = sql`${point.longitude}::float8`;
  return sql<number>`(2 * 6371.0088 * asin(sqrt(least(1,
    power(sin(radians(v.latitude - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(v.latitude)) * power(sin(radians(v.longitude - ${lon}) / 2), 2)))))`;
}

export async function referenceNodes(db: Kysely<Database>, f: ReferenceFilter): Promise<ReferenceNode[]> {
  const from = new Date(Math.max(f.now.getTime(), (f.fromDate ?? f.now).getTime()));
  const conditions: RawBuilder<unknown>[] = [
    sql`o.ends_at > ${from}`,
    sql`(e.publishing_date is null or e.publishing_date <= ${f.now})`,
  ];
  if (f.untilDate) conditions.push(sql`o.start_at < ${f.untilDate}`);
  if (f.fromStartDate) conditions.push(sql`o.start_at >= ${f.fromStartDate}`);
  if (f.categories?.length) conditions.push(sql`exists (select 1 from event_categories ec where ec.event_id = e.id and ec.category_id in (${sql.join(f.categories)}))`);
  if (f.notCategories?.length) conditions.push(sql`not exists (select 1 from event_categories ec where ec.event_id = e.id and ec.category_id in (${sql.join(f.notCategories)}))`);
  if (f.venues?.length) conditions.push(sql`exists (select 1 from venues v where v.id = o.venue_id and v.slug in (${sql.join(f.venues)}))`);
  if (f.organizers?.length) {
    conditions.push(sql`exists (select 1 from event_organizers eo join organizers og on og.id = eo.organizer_id where eo.event_id = e.id and og.slug in (${sql.join(f.organizers)}))`);
  }
  if (f.tag !== undefined) conditions.push(sql`${f.tag} = any(e.tags)`);
  if (f.mode) conditions.push(sql`e.mode = ${f.mode}`);
  if (f.onlyFeatured) conditions.push(sql`e.featured`);
  if (f.cancelledNotIncluded) conditions.push(sql`not o.cancelled`);
  if (f.soldOutNotIncluded) conditions.push(sql`not o.sold_out`);
  if (f.hours) {
    const { start, end } = f.hours;
    conditions.push(start < end ? sql`(o.local_minute >= ${start} and o.local_minute < ${end})` : sql`(o.local_minute >= ${start} or o.local_minute < ${end})`);
  }
  if (f.municipality) conditions.push(sql`exists (select 1 from venues v where v.id = o.venue_id and lower(v.municipality) = lower(${f.municipality}))`);
  if (f.postalCodes?.length) conditions.push(sql`exists (select 1 from venues v where v.id = o.venue_id and v.postal_code in (${sql.join(f.postalCodes)}))`);
  if (f.near) {
    conditions.push(sql`exists (select 1 from venues v where v.id = o.venue_id and v.latitude is not null and v.longitude is not null
      and ${haversineSql(f.near)} <= ${f.near.radiusKm}::float8)`);
  }
  for (const word of f.words ?? []) {
    const pattern = `%${word}%`;
    conditions.push(sql`(
      e.search_text like ${pattern}
      or exists (select 1 from event_organizers eo join organizers og on og.id = eo.organizer_id where eo.event_id = e.id and calendar_fold(og.name) like ${pattern})
      or exists (select 1 from event_categories ec join categories c on c.id = ec.category_id where ec.event_id = e.id and calendar_fold(c.name_nb || ' ' || c.name_en) like ${pattern})
      or exists (select 1 from venues v where v.id = o.venue_id and calendar_fold(v.name) like ${pattern})
    )`);
  }
  const partition = f.groupByDay ? sql`o.event_id, o.local_day` : sql`o.event_id`;
  const distance = f.near ? sql`(select ${haversineSql(f.near)} from venues v where v.id = o.venue_id)` : sql`null::float8`;
  const { rows } = await sql<{ event_id: string; start_ms: number; venue_id: string | null; distance_km: number | null }>`
    select r.event_id, r.start_ms, r.venue_id, r.distance_km from (
      select o.event_id, date_part('epoch', o.start_at) * 1000 as start_ms, o.start_at, o.venue_id, ${distance} as distance_km,
        row_number() over (partition by ${partition} order by o.start_at, o.id) as rank
      from occurrences o join events e on e.id = o.event_id
      where ${sql.join(conditions, sql` and `)}
    ) r
    where r.rank = 1
    order by r.start_at, r.event_id collate "C"`.execute(db);
  return rows.map((r) => ({
    eventId: r.event_id,
    startMs: Number(r.start_ms),
    venueId: r.venue_id,
    distanceKm: r.distance_km === null ? null : Number(r.distance_km),
  }));
}

export interface ReferenceFacets {
  venues: { id: string; hits: number }[];
  organizers: { id: string; hits: number }[];
  categories: { id: string; hits: number }[];
}

/** Facet counts over reference nodes: per node, its date's venue, its event's organizers and listed categories. */
export async function referenceFacets(db: Kysely<Database>, nodes: readonly ReferenceNode[]): Promise<ReferenceFacets> {
  const organizerRows = await db.selectFrom('event_organizers').select(['event_id', 'organizer_id']).execute();
  const categoryRows = await db
    .selectFrom('event_categories as ec')
    .innerJoin('categories as c', 'c.id', 'ec.category_id')
    .select(['ec.event_id', 'ec.category_id'])
    .execute();
  const count = (ids: Iterable<string>) => {
    const hits = new Map<string, number>();
    for (const id of ids) hits.set(id, (hits.get(id) ?? 0) + 1);
    return [...hits].map(([id, n]) => ({ id, hits: n })).sort((a, b) => b.hits - a.hits || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  };
  const linked = (rows: { event_id: string }[], pick: (row: never) => string) => {
    const byEvent = new Map<string, string[]>();
    for (const row of rows) byEvent.set(row.event_id, [...(byEvent.get(row.event_id) ?? []), pick(row as never)]);
    return byEvent;
  };
  const organizers = linked(organizerRows, (r: { organizer_id: string }) => r.organizer_id);
  const categories = linked(categoryRows, (r: { category_id: string }) => r.category_id);
  return {
    venues: count(nodes.flatMap((n) => (n.venueId ? [n.venueId] : []))),
    organizers: count(nodes.flatMap((n) => organizers.get(n.eventId) ?? [])),
    categories: count(nodes.flatMap((n) => categories.get(n.eventId) ?? [])),
  };
}
