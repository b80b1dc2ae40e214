import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../database.js';
import type { EventQuery } from '../../domain/event-query.js';
import { typoTolerance } from '../../domain/search-term.js';

/** One node of a result before loading: the event and the date promoted for it. */
export interface NodeRef {
  event_id: string;
  occurrence_id: string;
  local_day: string;
}

/** A search phase: literal substring matching, or approximate matching of titles and descriptions. */
export type SearchMode = 'literal' | 'approximate';

/**
 * Dates that satisfy every condition of the query: the date-level ones on the date itself and
 * the event-level ones on its event ("an event matches when one of its dates satisfies all").
 */
function matchingOccurrences(db: Kysely<Database>, q: EventQuery, search: SearchMode) {
  // Event-level conditions are uncorrelated `event_id in (...)` sets rather than a join: the events
  // table is wide (descriptions), and the default query then never reads it.
  return db
    .selectFrom('occurrences as o')
    .select(['o.id as occurrence_id', 'o.event_id', 'o.start_at', 'o.local_day', 'o.venue_id'])
    .where((eb) => {
      const conditions: Expression<SqlBool>[] = [
        // Ongoing at `from`: ends_at is the end, or start + 3 h for dates without an end time.
        eb('o.ends_at', '>', q.from),
        // An event whose publishing date lies in the future is not returned yet (a few events, by index).
        eb.not(eb('o.event_id', 'in', eb.selectFrom('events as up').select('up.id').where('up.publishing_date', '>', q.now))),
      ];
      if (q.until) conditions.push(eb('o.start_at', '<', q.until));
      if (q.fromStart) conditions.push(eb('o.start_at', '>=', q.fromStart));
      if (q.hoursRange) {
        const { startMinute, endMinute } = q.hoursRange;
        const afterStart = eb('o.local_minute', '>=', startMinute);
        const beforeEnd = eb('o.local_minute', '<', endMinute);
        // A window across midnight (22:00-02:00) wraps.
        conditions.push(startMinute < endMinute ? eb.and([afterStart, beforeEnd]) : eb.or([afterStart, beforeEnd]));
      }
      if (q.cancelledNotIncluded) conditions.push(eb('o.cancelled', '=', false));
      if (q.soldOutNotIncluded) conditions.push(eb('o.sold_out', '=', false));
      for (const slugs of q.venueSlugSets) {
        conditions.push(eb('o.venue_id', 'in', eb.selectFrom('venues').select('venues.id').where('venues.slug', 'in', slugs)));
      }
      if (q.municipality) {
        conditions.push(
          eb('o.venue_id', 'in', eb.selectFrom('venues').select('venues.id').where(sql<string>`lower(venues.municipality)`, '=', q.municipality.toLowerCase())),
        );
      }
      if (q.postalCodes) {
        conditions.push(eb('o.venue_id', 'in', eb.selectFrom('venues').select('venues.id').where('venues.postal_code', 'in', q.postalCodes)));
      }
      if (q.categories) {
        conditions.push(eb('o.event_id', 'in', eb.selectFrom('event_categories as ec').select('ec.event_id').where('ec.category_id', 'in', q.categories)));
      }
      if (q.notCategories.length > 0) {
        conditions.push(
          eb.not(eb('o.event_id', 'in', eb.selectFrom('event_categories as ec').select('ec.event_id').where('ec.category_id', 'in', q.notCategories))),
        );
      }
      for (const slugs of q.organizerSlugSets) {
        conditions.push(
          eb('o.event_id', 'in', eb.selectFrom('event_organizers as eo').innerJoin('organizers as org', 'org.id', 'eo.organizer_id')
            .select('eo.event_id').where('org.slug', 'in', slugs)),
        );
      }
      if (q.tag != null || q.mode || q.superEvent != null || q.onlyFeatured || q.onlyFeaturedSpecialEvent) {
        const events = eb.selectFrom('events as ev').select('ev.id').where((ev) => {
          const eventConditions: Expression<SqlBool>[] = [];
          if (q.tag != null) eventConditions.push(sql<SqlBool>`ev.tags @> array[${q.tag}]::text[]`);
          if (q.mode) eventConditions.push(ev('ev.mode', '=', q.mode));
          if (q.superEvent != null) eventConditions.push(ev('ev.super_event_id', '=', q.superEvent));
          if (q.onlyFeatured) eventConditions.push(ev('ev.featured', '=', true));
          if (q.onlyFeaturedSpecialEvent) eventConditions.push(ev('ev.featured_special_event', '=', true));
          return ev.and(eventConditions);
        });
        conditions.push(eb('o.event_id', 'in', events));
      }
      for (const word of q.searchWords) conditions.push(searchCondition(word, search));
      return eb.and(conditions);
    });
}

/**
 * One search word against a date and its event. Words are letters and digits only (see
 * searchWords), and are bound as parameters, never spliced into SQL. Each source is an uncorrelated
 * subquery, so PostgreSQL evaluates it once (hashed) with the trigram indexes, not once per date.
 */
function searchCondition(word: string, mode: SearchMode): Expression<SqlBool> {
  if (mode === 'literal') {
    const pattern = `%${word}%`;
    return sql<SqlBool>`(
      o.event_id in (
        select se.id from events se where se.search_text like ${pattern}
        union all
        select seo.event_id from event_organizers seo join organizers so on so.id = seo.organizer_id
        where calendar_fold(so.name) like ${pattern}
        union all
        select sec.event_id from event_categories sec join categories sc on sc.id = sec.category_id
        where calendar_fold(sc.name_nb || ' ' || sc.name_en) like ${pattern}
      )
      or o.venue_id in (select sv.id from venues sv where calendar_fold(sv.name) like ${pattern})
    )`;
  }
  // Approximate: one typing error for words of up to 5 letters, two for longer ones. Dictionary words
  // within that distance (trigram index, then Levenshtein), then the events containing one of them.
  const tolerance = typoTolerance(word);
  return sql<SqlBool>`o.event_id in (
    select se.id
    from search_words sw
    join events se on se.search_text like '%' || sw.word || '%'
    where sw.word operator(public.%) ${word}
      and public.levenshtein_less_equal(sw.word, ${word}, ${tolerance}) <= ${tolerance}
  )`;
}

/** Grouping keys compared byte-wise: any order groups equal ids, and `C` sorts far faster than a locale. */
const byteOrder = (column: 'm.event_id' | 'm.local_day') => sql<string>`${sql.ref(column)} collate "C"`;

/** Nodes: per event (or per event and Oslo day), its first matching date. */
function nodesQuery(db: Kysely<Database>, q: EventQuery, search: SearchMode) {
  return db
    .with('m', () => matchingOccurrences(db, q, search))
    .with('nodes', (w) => {
      const base = w.selectFrom('m').select(['m.occurrence_id', 'm.event_id', 'm.start_at', 'm.local_day', 'm.venue_id']);
      // Read more than once (page, total, facets), so PostgreSQL computes it once (materialized).
      return q.groupByDay
        ? base.distinctOn([byteOrder('m.event_id'), byteOrder('m.local_day')]).orderBy(byteOrder('m.event_id')).orderBy(byteOrder('m.local_day')).orderBy('m.start_at').orderBy('m.occurrence_id')
        : base.distinctOn(byteOrder('m.event_id')).orderBy(byteOrder('m.event_id')).orderBy('m.start_at').orderBy('m.occurrence_id');
    });
}

export type FacetKind = 'venues' | 'organizers' | 'categories';

export interface FacetCount {
  id: string;
  hits: number;
}

export interface NodePage {
  nodes: NodeRef[];
  totalCount: number;
  /** Counts of the facets asked for, over every node of the result, most hits first (ties by id). */
  facets: Partial<Record<FacetKind, FacetCount[]>>;
}

interface NodePageRow {
  page: { event_id: string; occurrence_id: string | number; local_day: string }[] | null;
  total: number | string;
  venues?: FacetCount[] | null;
  organizers?: FacetCount[] | null;
  categories?: FacetCount[] | null;
}

/**
 * One statement for a page: the node set is computed once and read for the page (chronological by
 * the promoted date, ties by event id), the total, and each facet asked for.
 */
export async function findNodePage(
  db: Kysely<Database>,
  q: EventQuery,
  page: number,
  pageSize: number,
  search: SearchMode = 'literal',
  facets: readonly FacetKind[] = [],
): Promise<NodePage> {
  const pageRows = sql`select nodes.event_id, nodes.occurrence_id, nodes.local_day from nodes
    order by nodes.start_at, nodes.event_id, nodes.occurrence_id limit ${pageSize} offset ${page * pageSize}`;
  const facetSql: Record<FacetKind, ReturnType<typeof sql>> = {
    venues: sql`select nodes.venue_id as id, count(*)::int as hits from nodes
      where nodes.venue_id is not null group by nodes.venue_id`,
    organizers: sql`select eo.organizer_id as id, count(*)::int as hits from nodes
      join event_organizers eo on eo.event_id = nodes.event_id group by eo.organizer_id`,
    // Only categories still listed: a retired id is gone from `categories`.
    categories: sql`select ec.category_id as id, count(*)::int as hits from nodes
      join event_categories ec on ec.event_id = nodes.event_id
      join categories c on c.id = ec.category_id group by ec.category_id`,
  };
  const row = (await nodesQuery(db, q, search)
    .selectNoFrom([
      sql`coalesce((select json_agg(p) from (${pageRows}) p), '[]'::json)`.as('page'),
      sql`(select count(*)::int from nodes)`.as('total'),
      ...facets.map((kind) =>
        sql`coalesce((select json_agg(f order by f.hits desc, f.id) from (${facetSql[kind]}) f), '[]'::json)`.as(kind),
      ),
    ])
    .executeTakeFirstOrThrow()) as NodePageRow;
  return {
    nodes: (row.page ?? []).map((r) => ({ event_id: r.event_id, occurrence_id: String(r.occurrence_id), local_day: r.local_day })),
    totalCount: Number(row.total),
    facets: Object.fromEntries(facets.map((kind) => [kind, (row[kind] ?? []).map((f) => ({ id: f.id, hits: Number(f.hits) }))])),
  };
}

/** Whether anything matches the search literally ("a literal match anywhere means no approximate matches"). */
export async function chooseSearchMode(db: Kysely<Database>, q: EventQuery): Promise<SearchMode> {
  if (q.searchWords.length === 0) return 'literal';
  const row = await matchingOccurrences(db, q, 'literal').select(sql`1`.as('one')).limit(1).executeTakeFirst();
  return row ? 'literal' : 'approximate';
}
