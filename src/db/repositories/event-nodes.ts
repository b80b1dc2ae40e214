import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../database.js';
import { fromIsNow, type EventQuery } from '../../domain/event-query.js';
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
 * How the event-level conditions (categories, organizers, event flags) are checked:
 * - `sets`: uncorrelated `event_id in (...)` sets, which PostgreSQL may hash or probe as it sees fit;
 * - `probes`: per date, by key (correlated subplans PostgreSQL cannot turn into hashed sets), for
 *   the few dates running at `from`, where hashing a whole category costs more than the dates;
 * - `known`: not checked, for an earlier date of an event already known to satisfy them.
 * Search words follow their own SearchStrategy; with `known` they are probed, as they also match
 * the date's venue.
 */
export type EventConditions = 'sets' | 'probes' | 'known';

/**
 * Dates that satisfy every condition of the query: the date-level ones on the date itself and
 * the event-level ones on its event ("an event matches when one of its dates satisfies all").
 */
function matchingOccurrences(
  db: Kysely<Database>,
  q: EventQuery,
  search: SearchMode,
  {
    runningAtFrom = false,
    strategy = 'set',
    eventConditions = 'sets',
  }: { runningAtFrom?: boolean; strategy?: SearchStrategy; eventConditions?: EventConditions } = {},
) {
  // Event-level conditions are on `o.event_id` rather than a join: the events table is wide
  // (descriptions), and the default query then never reads it.
  const probes = eventConditions === 'probes';
  /** The date's event is linked to one of `ids` (a list or a subquery). */
  const linkedTo = (links: 'event_categories' | 'event_organizers', column: 'category_id' | 'organizer_id', ids: Expression<unknown>) =>
    probes
      ? // `offset 0` keeps PostgreSQL from turning the correlated `exists` into a (hashed) semi-join.
        sql<SqlBool>`exists (select 1 from ${sql.table(links)} l where l.event_id = o.event_id and l.${sql.ref(column)} in (${ids}) offset 0)`
      : sql<SqlBool>`o.event_id in (select l.event_id from ${sql.table(links)} l where l.${sql.ref(column)} in (${ids}))`;
  return db
    .selectFrom('occurrences as o')
    .select(['o.id as occurrence_id', 'o.event_id', 'o.start_at', 'o.local_day', 'o.venue_id'])
    .where((eb) => {
      const conditions: Expression<SqlBool>[] = [
        // Ongoing at `from`: ends_at is the end, or start + 3 h for dates without an end time.
        eb('o.ends_at', '>', q.from),
        // An event whose publishing date lies in the future is not returned yet (copied onto each date).
        eb.or([eb('o.publishing_date', 'is', null), eb('o.publishing_date', '<=', q.now)]),
      ];
      // A date running at `from` started before it: an `until` after `from` then adds nothing, and
      // left in, PostgreSQL would intersect the span index with a large start-index range.
      if (q.until && !(runningAtFrom && q.until > q.from)) conditions.push(eb('o.start_at', '<', q.until));
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
      // A search word may match through the date's own venue, so it is checked on every date.
      const searchWords = q.searchWords.map((word) => searchCondition(word, search, eventConditions === 'known' ? 'probe' : strategy));
      if (eventConditions === 'known') return eb.and([...conditions, ...searchWords]);
      if (q.categories) conditions.push(linkedTo('event_categories', 'category_id', sql.join(q.categories)));
      if (q.notCategories.length > 0) conditions.push(eb.not(linkedTo('event_categories', 'category_id', sql.join(q.notCategories))));
      for (const slugs of q.organizerSlugSets) {
        conditions.push(linkedTo('event_organizers', 'organizer_id', eb.selectFrom('organizers as org').select('org.id').where('org.slug', 'in', slugs)));
      }
      if (q.tag != null || q.mode || q.superEvent != null || q.onlyFeatured || q.onlyFeaturedSpecialEvent) {
        const events = eb.selectFrom('events as ev').where((ev) => {
          const flags: Expression<SqlBool>[] = [];
          if (q.tag != null) flags.push(sql<SqlBool>`ev.tags @> array[${q.tag}]::text[]`);
          if (q.mode) flags.push(ev('ev.mode', '=', q.mode));
          if (q.superEvent != null) flags.push(ev('ev.super_event_id', '=', q.superEvent));
          if (q.onlyFeatured) flags.push(ev('ev.featured', '=', true));
          if (q.onlyFeaturedSpecialEvent) flags.push(ev('ev.featured_special_event', '=', true));
          return ev.and(flags);
        });
        conditions.push(
          probes
            ? eb.exists(events.select(sql`1`.as('one')).where('ev.id', '=', sql.ref<string>('o.event_id')).offset(0))
            : eb('o.event_id', 'in', events.select('ev.id')),
        );
      }
      conditions.push(...searchWords);
      return eb.and(conditions);
    });
}

/**
 * How a search word is checked. `set`: every matching event is found once (trigram index) and
 * hashed; right for whole-result counts and for sparse matches. `probe`: each date visited checks its
 * own event (a primary-key lookup), so a page walk that meets matches early never builds the set.
 */
export type SearchStrategy = 'set' | 'probe';

/**
 * One search word against a date and its event. Words are letters and digits only (see
 * searchWords), and are bound as parameters, never spliced into SQL.
 */
function searchCondition(word: string, mode: SearchMode, strategy: SearchStrategy): Expression<SqlBool> {
  // Each strategy's conditions are built from the same lists, each computed once per statement.
  if (mode === 'approximate') {
    // One typing error for words of up to 5 letters, two for longer ones: the dictionary words within
    // that distance (trigram index, then Levenshtein), then the events whose text contains one.
    const tolerance = typoTolerance(word);
    const nearPatterns = sql`select '%' || sw.word || '%' as pattern from search_words sw
      where sw.word operator(public.%) ${word} and public.levenshtein_less_equal(sw.word, ${word}, ${tolerance}) <= ${tolerance}`;
    return strategy === 'probe'
      ? sql<SqlBool>`coalesce((select se.search_text like any (array(${nearPatterns})) from events se where se.id = o.event_id), false)`
      : sql<SqlBool>`o.event_id in (select se.id from (${nearPatterns}) near join events se on se.search_text like near.pattern)`;
  }
  const pattern = `%${word}%`;
  const organizers = sql`select so.id from organizers so where calendar_fold(so.name) like ${pattern}`;
  const categories = sql`select sc.id from categories sc where calendar_fold(sc.name_nb || ' ' || sc.name_en) like ${pattern}`;
  const venueMatches = sql<SqlBool>`o.venue_id in (select sv.id from venues sv where calendar_fold(sv.name) like ${pattern})`;
  if (strategy === 'probe') {
    // Scalar subqueries, so that PostgreSQL cannot turn them into hashed sets. The few organizers
    // and categories whose names match are listed once; each date looks up its event's links by key.
    return sql<SqlBool>`(
      coalesce((select se.search_text like ${pattern} from events se where se.id = o.event_id), false)
      or (select count(*) from event_organizers seo where seo.event_id = o.event_id and seo.organizer_id = any (array(${organizers}))) > 0
      or (select count(*) from event_categories sec where sec.event_id = o.event_id and sec.category_id = any (array(${categories}))) > 0
      or ${venueMatches}
    )`;
  }
  return sql<SqlBool>`(
    o.event_id in (
      select se.id from events se where se.search_text like ${pattern}
      union all
      select seo.event_id from event_organizers seo where seo.organizer_id in (${organizers})
      union all
      select sec.event_id from event_categories sec where sec.category_id in (${categories})
    )
    or ${venueMatches}
  )`;
}

/** Grouping keys compared byte-wise: any order groups equal ids, and `C` sorts far faster than a locale. */
const byteOrder = (column: `${'m' | 'n'}.${'event_id' | 'local_day'}`) => sql<string>`${sql.ref(column)} collate "C"`;

/**
 * Nodes of the whole result, for its total and facets: per event (or per event and Oslo day) its
 * first matching date. Only the venue facet needs to know which date that is; without it, grouping
 * the event ids is enough (and cheaper than sorting every date).
 */
function allNodesQuery(db: Kysely<Database>, q: EventQuery, search: SearchMode, needsPromotedDate: boolean) {
  return db
    .with('m', () => matchingOccurrences(db, q, search))
    .with('nodes', (w) => {
      if (!needsPromotedDate) {
        const ids = w.selectFrom('m').select(['m.event_id', sql<string | null>`null`.as('venue_id')]);
        return q.groupByDay ? ids.groupBy(['m.event_id', 'm.local_day']) : ids.groupBy('m.event_id');
      }
      const base = w.selectFrom('m').select(['m.event_id', 'm.venue_id']);
      // Read more than once (total, facets), so PostgreSQL computes it once (materialized).
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

/** What the whole result adds up to, whichever page is asked for. */
export interface NodeSummary {
  /** The data version it was computed on (`calendar_state.version`). */
  version: string;
  totalCount: number;
  /** Counts of the facets asked for, over every node of the result, most hits first (ties by id). */
  facets: Partial<Record<FacetKind, FacetCount[]>>;
  /** How a page of a search checks its words (see chooseSearchStrategy); `set` without a search. */
  searchStrategy: SearchStrategy;
  /**
   * The first instant (ms) after `q.now` at which the result may differ: an event gets published,
   * or, when `from` is "now", a date of the calendar ends. Infinity when neither is ahead.
   */
  validUntil: number;
}

interface NodeSummaryRow {
  version: number | string;
  valid_until: Date | string | null;
  total: number | string;
  events?: number | string;
  venues?: FacetCount[] | null;
  organizers?: FacetCount[] | null;
  categories?: FacetCount[] | null;
}

const currentVersion = sql<string>`(select cs.version from calendar_state cs)`;

/** One statement: the node set is computed once and read for the total and each facet asked for. */
export async function findNodeSummary(
  db: Kysely<Database>,
  q: EventQuery,
  search: SearchMode,
  facets: readonly FacetKind[] = [],
): Promise<NodeSummary> {
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
  // Any date's end or publishing date, not only the result's: one index probe each, and never late.
  const nextEnd = fromIsNow(q) ? sql`(select min(oe.ends_at) from occurrences oe where oe.ends_at > ${q.from})` : sql`null`;
  const nextPublishing = sql`(select min(ep.publishing_date) from events ep where ep.publishing_date > ${q.now})`;
  const row = (await allNodesQuery(db, q, search, facets.includes('venues'))
    .selectNoFrom([
      currentVersion.as('version'),
      sql`least(${nextEnd}, ${nextPublishing})`.as('valid_until'),
      sql`(select count(*)::int from nodes)`.as('total'),
      ...(q.searchWords.length > 0 ? [sql`(select count(*)::int from events)`.as('events')] : []),
      ...facets.map((kind) =>
        sql`coalesce((select json_agg(f order by f.hits desc, f.id) from (${facetSql[kind]}) f), '[]'::json)`.as(kind),
      ),
    ])
    .executeTakeFirstOrThrow()) as NodeSummaryRow;
  const totalCount = Number(row.total);
  return {
    version: String(row.version),
    totalCount,
    facets: Object.fromEntries(facets.map((kind) => [kind, (row[kind] ?? []).map((f) => ({ id: f.id, hits: Number(f.hits) }))])),
    searchStrategy: q.searchWords.length > 0 ? chooseSearchStrategy(totalCount, Number(row.events ?? 0)) : 'set',
    validUntil: row.valid_until == null ? Number.POSITIVE_INFINITY : new Date(row.valid_until).getTime(),
  };
}

/**
 * Probing pays per date walked, the set once per matching event. A page of the first W nodes walks
 * about W·E/T dates when T of the calendar's E events match, at roughly 8 times the cost per date of
 * one matching event in the set (both measured at 100k events): probe when W·E/T·8 < T, with W
 * the size of a typical first page (10 nodes and one more). Deeper pages of a sparse result lose
 * little: the set costs at most what the whole-result count already paid.
 */
export function chooseSearchStrategy(matchingNodes: number, events: number): SearchStrategy {
  const typicalWalk = 11;
  return matchingNodes * matchingNodes >= 8 * typicalWalk * Math.max(events, 1) ? 'probe' : 'set';
}

export interface NodePage {
  /** The data version the page was read from. */
  version: string;
  nodes: NodeRef[];
  /** Whether the next page has content. */
  hasMore: boolean;
}

interface NodePageRow {
  version: number | string;
  page: { event_id: string; occurrence_id: string | number; local_day: string }[] | null;
}

/**
 * One page of nodes, chronological by the promoted date (ties by event id), read in index order
 * rather than computed over every date. A node is a matching date with no earlier matching date of
 * its event (and day, when grouping by day). Every node either is running at `from` (started
 * before, not ended) or starts at or after `from`, so all nodes of the first kind come first:
 * - running dates are few and found by the span index, their events checked by key; an earlier
 *   matching date of the same event would be running too, so the first one per event is picked;
 * - later dates are walked from the start index in order, each kept when no earlier date of its
 *   event satisfies the date-level conditions and search words (one index probe: the other
 *   event-level conditions are the same), until the page and one more node are found.
 */
export async function findNodePage(
  db: Kysely<Database>,
  q: EventQuery,
  page: number,
  pageSize: number,
  search: SearchMode,
  strategy: SearchStrategy = 'set',
): Promise<NodePage> {
  const running = db
    .selectFrom(
      matchingOccurrences(db, q, search, { runningAtFrom: true, strategy, eventConditions: 'probes' })
        .where(sql<SqlBool>`tstzrange(o.start_at, o.ends_at, '()') @> ${q.from}::timestamptz`)
        .as('n'),
    )
    .select(['n.occurrence_id', 'n.event_id', 'n.start_at', 'n.local_day'])
    .$if(!q.groupByDay, (b) => b.distinctOn(byteOrder('n.event_id')).orderBy(byteOrder('n.event_id')))
    .$if(q.groupByDay, (b) =>
      b.distinctOn([byteOrder('n.event_id'), byteOrder('n.local_day')]).orderBy(byteOrder('n.event_id')).orderBy(byteOrder('n.local_day')),
    )
    .orderBy('n.start_at')
    .orderBy('n.occurrence_id');
  const later = db
    .selectFrom(matchingOccurrences(db, q, search, { strategy }).where('o.start_at', '>=', q.from).as('n'))
    .select(['n.occurrence_id', 'n.event_id', 'n.start_at', 'n.local_day'])
    .where(({ not, exists }) =>
      not(exists(
        // The same event: its event-level conditions already hold (search words aside).
        matchingOccurrences(db, q, search, { eventConditions: 'known' })
          .clearSelect()
          .select(sql`1`.as('one'))
          .where('o.event_id', '=', sql.ref<string>('n.event_id'))
          .$if(q.groupByDay, (e) => e.where('o.local_day', '=', sql.ref<string>('n.local_day')))
          .where(sql<SqlBool>`(o.start_at, o.id) < (n.start_at, n.occurrence_id)`),
      )),
    )
    .orderBy('n.start_at')
    .orderBy('n.event_id')
    // Enough to fill the page and tell whether another follows, even with no running nodes.
    .limit((page + 1) * pageSize + 1);
  const rows = db
    .selectFrom(db.selectFrom(running.as('r')).selectAll().unionAll(db.selectFrom(later.as('l')).selectAll()).as('p'))
    .select(['p.event_id', 'p.occurrence_id', 'p.local_day'])
    .orderBy('p.start_at')
    .orderBy('p.event_id')
    .limit(pageSize + 1)
    .offset(page * pageSize);
  const row = (await db
    .selectNoFrom([
      currentVersion.as('version'),
      sql`coalesce((select json_agg(r) from (${rows}) r), '[]'::json)`.as('page'),
    ])
    .executeTakeFirstOrThrow()) as NodePageRow;
  const found = (row.page ?? []).map((r) => ({ event_id: r.event_id, occurrence_id: String(r.occurrence_id), local_day: r.local_day }));
  return { version: String(row.version), nodes: found.slice(0, pageSize), hasMore: found.length > pageSize };
}

/** Whether anything matches the search literally ("a literal match anywhere means no approximate matches"). */
export async function chooseSearchMode(db: Kysely<Database>, q: EventQuery): Promise<SearchMode> {
  if (q.searchWords.length === 0) return 'literal';
  const row = await matchingOccurrences(db, q, 'literal').select(sql`1`.as('one')).limit(1).executeTakeFirst();
  return row ? 'literal' : 'approximate';
}
