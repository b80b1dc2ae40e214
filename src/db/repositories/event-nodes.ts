import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../database.js';
import type { EventQuery } from '../../domain/event-query.js';

/** One node of a result before loading: the event and the date promoted for it. */
export interface NodeRef {
  event_id: string;
  occurrence_id: string;
  local_day: string;
}

export interface NodePage {
  nodes: NodeRef[];
  totalCount: number;
}

/** A search phase: literal substring matching, or approximate matching of titles and descriptions. */
export type SearchMode = 'literal' | 'approximate';

/**
 * Dates that satisfy every condition of the query: the date-level ones on the date itself and
 * the event-level ones on its event ("an event matches when one of its dates satisfies all").
 */
function matchingOccurrences(db: Kysely<Database>, q: EventQuery, search: SearchMode) {
  return db
    .selectFrom('occurrences as o')
    .innerJoin('events as e', 'e.id', 'o.event_id')
    .select(['o.id as occurrence_id', 'o.event_id', 'o.start_at', 'o.local_day', 'o.venue_id'])
    .where((eb) => {
      const conditions: Expression<SqlBool>[] = [
        // Ongoing at `from`: ends_at is the end, or start + 3 h for dates without an end time.
        eb('o.ends_at', '>', q.from),
        // An event whose publishing date lies in the future is not returned yet.
        eb.or([eb('e.publishing_date', 'is', null), eb('e.publishing_date', '<=', q.now)]),
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
        conditions.push(
          eb.exists(
            eb.selectFrom('event_categories as ec').select(sql`1`.as('one'))
              .whereRef('ec.event_id', '=', 'e.id').where('ec.category_id', 'in', q.categories),
          ),
        );
      }
      if (q.notCategories.length > 0) {
        conditions.push(
          eb.not(eb.exists(
            eb.selectFrom('event_categories as ec').select(sql`1`.as('one'))
              .whereRef('ec.event_id', '=', 'e.id').where('ec.category_id', 'in', q.notCategories),
          )),
        );
      }
      for (const slugs of q.organizerSlugSets) {
        conditions.push(
          eb.exists(
            eb.selectFrom('event_organizers as eo').innerJoin('organizers as org', 'org.id', 'eo.organizer_id')
              .select(sql`1`.as('one')).whereRef('eo.event_id', '=', 'e.id').where('org.slug', 'in', slugs),
          ),
        );
      }
      if (q.tag != null) conditions.push(sql<SqlBool>`e.tags @> array[${q.tag}]::text[]`);
      if (q.mode) conditions.push(eb('e.mode', '=', q.mode));
      if (q.superEvent != null) conditions.push(eb('e.super_event_id', '=', q.superEvent));
      if (q.onlyFeatured) conditions.push(eb('e.featured', '=', true));
      if (q.onlyFeaturedSpecialEvent) conditions.push(eb('e.featured_special_event', '=', true));
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
  // Approximate: one typing error for words of up to 5 letters, two for longer ones. The trigram
  // operator prefilters through the index; Levenshtein over the text's words decides.
  const tolerance = word.length <= 5 ? 1 : 2;
  return sql<SqlBool>`o.event_id in (
    select se.id from events se
    where se.search_text operator(public.%>) ${word}
      and exists (
        select 1 from regexp_split_to_table(se.search_text, '[^[:alnum:]]+') as t(w)
        where public.levenshtein_less_equal(t.w, ${word}, ${tolerance}) <= ${tolerance}
      )
  )`;
}

/** Nodes: per event (or per event and Oslo day), its first matching date. */
function nodesQuery(db: Kysely<Database>, q: EventQuery, search: SearchMode) {
  return db
    .with('m', () => matchingOccurrences(db, q, search))
    .with('nodes', (w) => {
      const base = w.selectFrom('m').select(['m.occurrence_id', 'm.event_id', 'm.start_at', 'm.local_day', 'm.venue_id']);
      return q.groupByDay
        ? base.distinctOn(['m.event_id', 'm.local_day']).orderBy('m.event_id').orderBy('m.local_day').orderBy('m.start_at').orderBy('m.occurrence_id')
        : base.distinctOn('m.event_id').orderBy('m.event_id').orderBy('m.start_at').orderBy('m.occurrence_id');
    });
}

async function countNodes(db: Kysely<Database>, q: EventQuery, search: SearchMode): Promise<number> {
  const row = await nodesQuery(db, q, search)
    .selectFrom('nodes')
    .select(sql<number>`count(*)::int`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * One page of nodes in chronological order of the promoted date (ties by event id), with the
 * total across all pages from the same statement.
 */
export async function findNodePage(
  db: Kysely<Database>,
  q: EventQuery,
  page: number,
  pageSize: number,
  search: SearchMode = 'literal',
): Promise<NodePage> {
  const rows = await nodesQuery(db, q, search)
    .selectFrom('nodes')
    .select(['nodes.event_id', 'nodes.occurrence_id', 'nodes.local_day', sql<number>`count(*) over ()::int`.as('total')])
    .orderBy('nodes.start_at')
    .orderBy('nodes.event_id')
    .orderBy('nodes.occurrence_id')
    .limit(pageSize)
    .offset(page * pageSize)
    .execute();
  const first = rows[0];
  // Past the last page the window count has no row to ride on: count separately.
  const totalCount = first ? Number(first.total) : page > 0 ? await countNodes(db, q, search) : 0;
  return {
    nodes: rows.map((r) => ({ event_id: r.event_id, occurrence_id: String(r.occurrence_id), local_day: r.local_day })),
    totalCount,
  };
}

export interface FacetCount {
  id: string;
  hits: number;
}

/** Facet counts over every node of the result (not just the page), most hits first. */
export async function countFacets(
  db: Kysely<Database>,
  q: EventQuery,
  facet: 'venues' | 'organizers' | 'categories',
  search: SearchMode = 'literal',
): Promise<FacetCount[]> {
  const nodes = nodesQuery(db, q, search);
  const query =
    facet === 'venues'
      ? nodes.selectFrom('nodes').where('nodes.venue_id', 'is not', null)
          .select([sql<string>`nodes.venue_id`.as('id'), sql<number>`count(*)::int`.as('hits')]).groupBy('nodes.venue_id')
      : facet === 'organizers'
        ? nodes.selectFrom('nodes').innerJoin('event_organizers as eo', 'eo.event_id', 'nodes.event_id')
            .select([sql<string>`eo.organizer_id`.as('id'), sql<number>`count(*)::int`.as('hits')]).groupBy('eo.organizer_id')
        : nodes.selectFrom('nodes').innerJoin('event_categories as ec', 'ec.event_id', 'nodes.event_id')
            .innerJoin('categories as c', 'c.id', 'ec.category_id')
            .select([sql<string>`ec.category_id`.as('id'), sql<number>`count(*)::int`.as('hits')]).groupBy('ec.category_id');
  const rows = await query.orderBy(sql`count(*)`, 'desc').orderBy(sql`1`).execute();
  return rows.map((r) => ({ id: r.id, hits: Number(r.hits) }));
}

/** Whether anything matches the search literally ("a literal match anywhere means no approximate matches"). */
export async function chooseSearchMode(db: Kysely<Database>, q: EventQuery): Promise<SearchMode> {
  if (q.searchWords.length === 0) return 'literal';
  const row = await matchingOccurrences(db, q, 'literal').select(sql`1`.as('one')).limit(1).executeTakeFirst();
  return row ? 'literal' : 'approximate';
}
