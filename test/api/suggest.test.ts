import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel } from '../support/test-database.js';
import { getGraphQL, postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { NOW, suggestCalendar } from './fixtures/suggest-calendar.js';

/**
 * `suggest` (issue 31) over HTTP, against a reference built from the public API alone: the catalogues,
 * the events `events(filter)` lists, and for every candidate the `totalCount` of `events` with its
 * condition added. The reference matches, ranks and cuts with its own code, written from the rules.
 */

type Kind = 'VENUE' | 'ORGANIZER' | 'CATEGORY' | 'TAG' | 'EVENT';
interface Suggestion {
  kind: Kind;
  value: string;
  label_nb: string | null;
  label_en: string | null;
  hits: number;
}
type Filter = Record<string, unknown>;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ calendar: suggestCalendar, clock: () => NOW });
}, 120_000);
afterAll(async () => server?.close());

const SUGGEST = 'query ($prefix: String!, $filter: Filter, $limit: Int) { suggest(prefix: $prefix, filter: $filter, limit: $limit) { kind value label_nb label_en hits } }';

async function data<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const { body } = await postGraphQL(server.url, { query, variables });
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as T;
}

async function suggest(prefix: string, filter?: Filter, limit?: number): Promise<Suggestion[]> {
  return (await data<{ suggest: Suggestion[] }>(SUGGEST, { prefix, filter, limit })).suggest;
}

// --- The reference -------------------------------------------------------------------------------

const UNDECOMPOSABLE: Record<string, string> = { ø: 'o', æ: 'ae', ß: 'ss', œ: 'oe', đ: 'd', ł: 'l', ð: 'd', þ: 'th', ı: 'i' };
const stripMarks = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '');
/** The folding `searchTerm` documents: lowercase, accents off, Norwegian letters spelled out, split on what is not a letter or digit. */
const fold = (text: string): string[] =>
  stripMarks(stripMarks(text).toLowerCase())
    .replace(/[øæßœđłðþı]/gu, (letter) => UNDECOMPOSABLE[letter]!)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
const slugWords = (slug: string) => fold(slug).filter((word) => !/^\d+$/.test(word));

interface Candidate {
  kind: Kind;
  value: string;
  label_nb: string | null;
  label_en: string | null;
  /** Each label (or slug, or tag) as folded words. */
  labels: string[][];
  /** Folded label, value, kind: the label order. */
  order: string;
}

const KIND_ORDER: Kind[] = ['VENUE', 'ORGANIZER', 'CATEGORY', 'TAG', 'EVENT'];
const candidate = (kind: Kind, value: string, label_nb: string | null, label_en: string | null, labels: string[][], primary: string[]): Candidate => ({
  kind,
  value,
  label_nb,
  label_en,
  labels,
  order: `${primary.join(' ')}\u0001${value}\u0001${KIND_ORDER.indexOf(kind)}`,
});

/** Optimal string alignment distance of two short strings. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** Whether `word`, as typed so far, starts `labelWord` (with one typo: some start of it is one edit away). */
function starts(word: string, labelWord: string, typo: boolean): boolean {
  if (labelWord.startsWith(word)) return true;
  if (!typo) return false;
  for (let length = word.length - 1; length <= word.length + 1; length++) {
    if (length <= labelWord.length && osa(word, labelWord.slice(0, length)) <= 1) return true;
  }
  return false;
}

/** 0: the first word starts a label's first word; 1: every word starts some word; null: no match. `typo`: the word that may have one. */
function matchQuality(c: Candidate, words: string[], typo: number | null): number | null {
  const allWords = c.labels.flat();
  for (let j = 0; j < words.length; j++) if (!allWords.some((w) => starts(words[j]!, w, typo === j))) return null;
  return c.labels.some((label) => label.length > 0 && starts(words[0]!, label[0]!, typo === 0)) ? 0 : 1;
}

const totals = new Map<string, Promise<number>>();
function totalCount(filter: Filter): Promise<number> {
  const key = JSON.stringify(filter);
  let total = totals.get(key);
  if (!total) {
    total = data<{ events: { totalCount: number } }>('query ($f: Filter) { events(filter: $f) { totalCount } }', { f: filter }).then((d) => d.events.totalCount);
    totals.set(key, total);
  }
  return total;
}

interface ListedEvent {
  event_slug: string;
  title_nb: string | null;
  title_en: string | null;
  tags: string[];
}
const listings = new Map<string, Promise<ListedEvent[]>>();
/** Every event `events(filter)` lists (each once, grouped by day or not). */
function listed(filter: Filter): Promise<ListedEvent[]> {
  const key = JSON.stringify(filter);
  let events = listings.get(key);
  if (!events) {
    events = (async () => {
      const all = new Map<string, ListedEvent>();
      for (let page = 0; ; page++) {
        const { events: connection } = await data<{ events: { hasMore: boolean; data: ListedEvent[] } }>(
          'query ($f: Filter, $p: Int) { events(filter: $f, page: $p, pageSize: 1000) { hasMore data { event_slug title_nb title_en tags } } }',
          { f: filter, p: page },
        );
        for (const event of connection.data) all.set(event.event_slug, event);
        if (!connection.hasMore) return [...all.values()];
      }
    })();
    listings.set(key, events);
  }
  return events;
}

let catalogue: Promise<Candidate[]> | undefined;
/** Venues, organizers, visible categories (under visible parents), and the tags of every listable event. */
function catalogueCandidates(): Promise<Candidate[]> {
  catalogue ??= (async () => {
    interface CategoryRow {
      id: string;
      name_nb: string;
      name_en: string;
      visible: boolean;
      subCategories: CategoryRow[];
    }
    const d = await data<{ venues: { slug: string; name: string }[]; organizers: { slug: string; name: string }[]; categories: CategoryRow[] }>(
      '{ venues { slug name } organizers { slug name } categories { id name_nb name_en visible subCategories { id name_nb name_en visible subCategories { id } } } }',
    );
    const result: Candidate[] = [];
    for (const v of d.venues) result.push(candidate('VENUE', v.slug, v.name, v.name, [fold(v.name), slugWords(v.slug)], fold(v.name)));
    for (const o of d.organizers) result.push(candidate('ORGANIZER', o.slug, o.name, o.name, [fold(o.name), slugWords(o.slug)], fold(o.name)));
    for (const top of d.categories) {
      if (!top.visible) continue;
      for (const c of [top, ...top.subCategories.filter((s) => s.visible)]) {
        result.push(candidate('CATEGORY', c.id, c.name_nb, c.name_en, [fold(c.name_nb), fold(c.name_en)], fold(c.name_nb)));
      }
    }
    const tags = new Set((await listed({})).flatMap((e) => e.tags));
    for (const tag of tags) result.push(candidate('TAG', tag, tag, tag, [fold(tag)], fold(tag)));
    return result;
  })();
  return catalogue;
}

const CONDITION: Record<Exclude<Kind, 'EVENT'>, (value: string) => Filter> = {
  VENUE: (value) => ({ venueSlug: value }),
  ORGANIZER: (value) => ({ organizerSlug: value }),
  CATEGORY: (value) => ({ categories: [value] }),
  TAG: (value) => ({ tag: value }),
};

/** What `suggest(prefix, filter, limit)` should answer, found the slow way. */
async function reference(prefix: string, filter: Filter = {}, limit = 8): Promise<Suggestion[]> {
  const words = [...new Set(fold(prefix))].slice(0, 8);
  const events = (await listed(filter)).map((e) => {
    const primary = e.title_nb ? fold(e.title_nb) : e.title_en ? fold(e.title_en) : slugWords(e.event_slug);
    return candidate('EVENT', e.event_slug, e.title_nb, e.title_en, [fold(e.title_nb ?? ''), fold(e.title_en ?? ''), slugWords(e.event_slug)], primary);
  });
  const everyCandidate = [...(await catalogueCandidates()), ...events];
  const phase = async (typos: (number | null)[]) => {
    const ranked: (Suggestion & { quality: number; order: string })[] = [];
    for (const c of everyCandidate) {
      const qualities = typos.map((typo) => matchQuality(c, words, typo)).filter((q): q is number => q !== null);
      if (qualities.length === 0) continue;
      const hits = c.kind === 'EVENT' ? 1 : await totalCount({ ...filter, ...CONDITION[c.kind](c.value) });
      if (hits === 0) continue;
      ranked.push({ kind: c.kind, value: c.value, label_nb: c.label_nb, label_en: c.label_en, hits, quality: Math.min(...qualities), order: c.order });
    }
    ranked.sort((a, b) => a.quality - b.quality || b.hits - a.hits || (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    return ranked.slice(0, limit).map(({ kind, value, label_nb, label_en, hits }) => ({ kind, value, label_nb, label_en, hits }));
  };
  if (words.length === 0) return [];
  const literal = await phase([null]);
  if (literal.length > 0) return literal;
  const typoWords = words.flatMap((word, j) => (word.length >= 4 ? [j] : []));
  return typoWords.length > 0 ? phase(typoWords) : [];
}

// --- The tests -------------------------------------------------------------------------------------

const PREFIXES = ['k', 'ko', 'kul', 'oslo', 'bjø', 'jazz', 'asne b', 'peer g', 'konsrt', 'ose', 'strikk', 'kafé', 'trondheim j'];
const FILTERS: Filter[] = [
  {},
  { fromDate: '2026-04-10 00:00:00+02:00' },
  { when: 'THIS_WEEKEND' },
  // Windows with an end: each entity's events counted from those whose first date starts before it.
  { when: 'TODAY' },
  { when: 'NEXT_7_DAYS', categories: ['CONCERT'] },
  { fromDate: '2026-04-02 00:00:00+02:00', untilDate: '2026-04-06 00:00:00+02:00' },
  { when: 'THIS_MONTH', fromStartDate: '2026-03-20 00:00:00+01:00', cancelledNotIncluded: true },
  { categories: ['CONCERT'] },
  { venueSlug: 'grieghallen', organizers: ['oslo-jazzforum', 'bergen-filharmoniske'] },
  { groupRepetitionsByDay: true, untilDate: '2026-05-01 00:00:00+02:00' },
  { municipality: 'Bergen', cancelledNotIncluded: true },
  { searchTerm: 'konsert' },
  { searchTerm: 'konsrt kveld' },
  { tag: 'jazz', hoursRange: '18:00-23:00' },
];

describe(`suggest (${databaseLabel}): against events`, () => {
  it.each(FILTERS.map((filter) => [JSON.stringify(filter), filter] as const))('answers as the reference with filter %s', async (_label, filter) => {
    for (const prefix of PREFIXES) {
      expect(await suggest(prefix, filter), `${prefix} ${JSON.stringify(filter)}`).toEqual(await reference(prefix, filter));
    }
  }, 120_000);

  it('gives every suggestion exactly the totalCount of events with its condition, under every filter', async () => {
    for (const filter of FILTERS) {
      for (const suggestion of await suggest('s', filter, 50)) {
        if (suggestion.kind === 'EVENT') {
          expect(suggestion.hits).toBe(1);
          expect((await listed(filter)).map((e) => e.event_slug)).toContain(suggestion.value);
        } else {
          expect(suggestion.hits, `${suggestion.kind} ${suggestion.value} ${JSON.stringify(filter)}`).toBe(await totalCount({ ...filter, ...CONDITION[suggestion.kind](suggestion.value) }));
        }
      }
    }
  }, 120_000);

  it('ranks a label’s first word before an inner word, then by hits, then by label', async () => {
    const found = await suggest('jazz', {}, 20);
    const first = found.findIndex((s) => s.label_nb?.toLowerCase().startsWith('jazz') !== true);
    expect(first).toBeGreaterThan(0);
    // Every suggestion after the first inner-word match is an inner-word match too.
    expect(found.slice(first).every((s) => !s.label_nb?.toLowerCase().startsWith('jazz'))).toBe(true);
    const inner = found.slice(first).filter((s) => s.kind !== 'EVENT');
    expect(inner.map((s) => s.hits)).toEqual([...inner.map((s) => s.hits)].sort((a, b) => b - a));
  });

  it('cuts at limit without changing the order', async () => {
    const twenty = await suggest('k', {}, 20);
    expect(twenty).toHaveLength(20);
    expect(await suggest('k', {}, 3)).toEqual(twenty.slice(0, 3));
    expect(await suggest('k')).toEqual(twenty.slice(0, 8));
  });
});

describe(`suggest (${databaseLabel}): folding and typos`, () => {
  it('matches case and accents the way searchTerm folds them, Norwegian letters included', async () => {
    const ose = await suggest('ose');
    expect(ose.map((s) => `${s.kind} ${s.value}`)).toEqual(expect.arrayContaining(['VENUE osebakken-gard', 'ORGANIZER ose-teaterlag']));
    for (const prefix of ['Øse', 'ØSE', 'ôse', 'öse']) expect(await suggest(prefix), prefix).toEqual(ose);
    expect(await suggest('åsne bølgen')).toEqual(await suggest('ASNE BOLGEN'));
    expect((await suggest('åsen')).map((s) => s.value)).toContain('asen-kulturstue');
    expect(await suggest('strikkekafe', {}, 50)).toEqual(await suggest('Strikkekafé', {}, 50));
    expect((await suggest('ukentlig strikkekafe')).map((s) => s.label_nb)).toEqual(['Ukentlig strikkekafé']);
  });

  it('matches the English label and slug as well as the Norwegian label', async () => {
    expect((await suggest('open stage')).map((s) => s.value)).toEqual([expect.stringMatching(/^sg-ose-/)]);
    expect((await suggest('gard', {}, 50)).map((s) => s.value)).toContain('osebakken-gard');
  });

  it('tolerates one typo in a word of four or more letters when nothing matches literally', async () => {
    expect((await suggest('kosnert')).map((s) => s.value)).toContain('CONCERT');
    expect((await suggest('øsebakkn')).map((s) => s.value)).toContain('osebakken-gard');
    expect((await suggest('ukentlg')).map((s) => s.label_nb)).toEqual(['Ukentlig strikkekafé']);
    expect((await suggest('ukentilg strikk')).map((s) => s.label_nb)).toEqual(['Ukentlig strikkekafé']);
    // Three letters: no typo allowed.
    expect(await suggest('ksn')).toEqual([]);
    // A literal match anywhere: no typo matches mixed in.
    const literal = await suggest('konsert', {}, 50);
    expect(literal.every((s) => [s.label_nb, s.label_en, s.value].some((text) => fold(text ?? '').some((w) => w.startsWith('konsert'))))).toBe(true);
  });
});

describe(`suggest (${databaseLabel}): what is never suggested`, () => {
  it('never suggests a hidden category, nor a visible one under a hidden parent', async () => {
    for (const prefix of ['intern', 'lukket', 'closed', 'hemmelig', 'secret']) {
      expect((await suggest(prefix, {}, 50)).filter((s) => s.kind === 'CATEGORY'), prefix).toEqual([]);
    }
    // Its event is suggested, and counted under its category.
    expect((await suggest('klubbkveld')).map((s) => s.kind)).toEqual(['EVENT']);
  });

  it('matches categories by their labels, never by their ids', async () => {
    for (const prefix of ['debate', 'movies', 'sg-secret']) {
      const values = (await suggest(prefix, {}, 50)).filter((s) => s.kind === 'CATEGORY').map((s) => s.value);
      expect(values, prefix).toEqual([]);
    }
    expect((await suggest('samtale')).map((s) => s.value)).toContain('DEBATE');
  });

  it('suggests tags of listable events only', async () => {
    expect((await suggest('sommerkveld')).map((s) => `${s.kind} ${s.value}`)).toContain('TAG sommerkveld');
    expect(await suggest('sommerslipp')).toEqual([]);
    expect(await suggest('snikpremiere')).toEqual([]);
  });

  it('lists an event once, with hits 1, however many of its dates or days match', async () => {
    const grouped = await suggest('ukentlig', { groupRepetitionsByDay: true });
    expect(grouped.filter((s) => s.kind === 'EVENT')).toEqual([
      { kind: 'EVENT', value: expect.stringMatching(/^sg-strikk-/), label_nb: 'Ukentlig strikkekafé', label_en: null, hits: 1 },
    ]);
    const venue = await suggest('åsen kultur', { groupRepetitionsByDay: true });
    // Six weeks, one day of which has two dates: six nodes grouped by day, one without.
    expect(venue.find((s) => s.value === 'asen-kulturstue')?.hits).toBe(6);
    expect((await suggest('åsen kultur')).find((s) => s.value === 'asen-kulturstue')?.hits).toBe(1);
  });
});

describe(`suggest (${databaseLabel}): bad input`, () => {
  const refused = async (variables: Record<string, unknown>) => {
    const { body } = await postGraphQL(server.url, { query: SUGGEST, variables });
    expect(body.data).toBeNull();
    expect(body.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    return body.errors?.[0]?.extensions?.['invalidArgs'];
  };

  it.each([[''], ['   '], ['\t\n'], ['x'.repeat(101)]])('refuses the prefix %j naming it', async (prefix) => {
    expect(await refused({ prefix })).toEqual(['prefix']);
  });

  it.each([[0], [51], [-1]])('refuses limit %d naming it', async (limit) => {
    expect(await refused({ prefix: 'k', limit })).toEqual(['limit']);
  });

  it('names every bad argument at once, the filter’s too', async () => {
    expect(await refused({ prefix: ' ', limit: 100, filter: { fromDate: 'tomorrow' } })).toEqual(['prefix', 'limit', 'fromDate']);
  });

  it('accepts the bounds', async () => {
    expect(await suggest('x'.repeat(100))).toEqual([]);
    expect(await suggest('k', {}, 1)).toHaveLength(1);
    expect((await suggest('e', {}, 50)).length).toBe(50);
    // Punctuation alone holds no word: nothing to match.
    expect(await suggest('?!')).toEqual([]);
  });
});

describe(`suggest (${databaseLabel}): caching`, () => {
  /** Cache-Control's directives, and the CDN tags. */
  const policy = async (query: string, variables: Record<string, unknown>) => {
    const response = await getGraphQL(server.url, { query, variables });
    expect(response.status).toBe(200);
    const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    return { maxAge, swr: /stale-while-revalidate=(\d+)/.exec(response.headers.get('cache-control') ?? '')?.[1], tags: new Set(response.headers.get('surrogate-key')?.split(' ')) };
  };

  it('answers a GET with the TTL rules and CDN tags of events under the same filter', async () => {
    for (const filter of [{}, { when: 'TONIGHT' }]) {
      const suggested = await policy('query ($f: Filter) { suggest(prefix: "kon", filter: $f) { value hits } }', { f: filter });
      const listedPolicy = await policy('query ($f: Filter) { events(filter: $f) { totalCount } }', { f: filter });
      expect(suggested.tags).toEqual(listedPolicy.tags);
      expect(suggested.swr).toBe(listedPolicy.swr);
      expect(Math.abs(suggested.maxAge - listedPolicy.maxAge)).toBeLessThanOrEqual(1);
      expect(suggested.maxAge).toBeGreaterThan(0);
    }
  });
});
