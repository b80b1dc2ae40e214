/**
 * Issue 28's figures: how soon an import shows at CDN edges, and how much of an edge's cache it
 * keeps. Two `calendar serve` nodes (pinned to CPU 0) share one PostgreSQL schema (`bench_cdn`,
 * seeded with the demo calendar of BENCH_EVENTS events by the first node), each behind its own
 * Varnish edge running deploy/varnish/default.vcl, both edges in CDN_PURGE_URLS. This process (pin
 * it to CPU 1) is the reader and the importer. Each round:
 *
 * 1. picks a venue's first page of events and one event on it, and 200 other event pages, and has
 *    both edges cache them (an event page and its venue's listing are what readers see change);
 * 2. retitles the event by an import (in this process, so its commit time is known);
 * 3. polls both pages at both edges every 10 ms until both show the new title: the time to visible;
 * 4. asks the 200 untouched pages at both edges: the share answered from the edges' copies;
 * 5. reads the purge lag the service recorded (data_version_purges: commit to purged, database clock).
 *
 * Then one import adds a venue (`venues` at both edges), and the nodes stop for BENCH_OUTAGE_SECONDS
 * while the pages are read through the edges (errors counted). BENCH_PURGE=off runs the same without
 * CDN_PURGE_URLS (the edges go by the TTLs alone: the reference).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test taskset -c 1 npx tsx bench/cdn-purge.ts
 *   BENCH_ROUNDS=20 BENCH_EVENTS=2000 BENCH_OUTAGE_SECONDS=60 BENCH_PURGE=off ...
 *   BENCH_LOG_LEVEL=debug ...   # the nodes' purge lines after the rounds; a round over 2 s prints what the edges answered
 *
 * Every node of a service must have the same purge settings: a node left running from another run
 * (other edges) claims versions too, and purges its own edges instead.
 */
import { sql } from 'kysely';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { exportCalendar } from '../src/export/export-calendar.js';
import { importCalendar } from '../src/import/import-calendar.js';
import { dropSchema, openDatabase } from '../src/db/open-database.js';
import { freePort } from '../test/support/throwaway-postgres.js';
import { startThrowawayVarnish, type ThrowawayVarnish } from '../test/support/throwaway-varnish.js';
import { startPinnedService, type PinnedProcess } from './support/pinned-process.js';

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('set DATABASE_URL to a PostgreSQL the bench may create the schema bench_cdn in');
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 20);
const events = Number(process.env['BENCH_EVENTS'] ?? 2000);
const outageSeconds = Number(process.env['BENCH_OUTAGE_SECONDS'] ?? 60);
const purging = process.env['BENCH_PURGE'] !== 'off';
const serviceDir = process.env['BENCH_SERVICE_DIR'] ?? fileURLToPath(new URL('..', import.meta.url));
const schema = 'bench_cdn';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

const database = await openDatabase({ url: databaseUrl, schema, dataDir: '', poolSize: 2 });
await dropSchema(database.db, schema);
await database.close();

const edgePorts = [await freePort(), await freePort()];
const env = {
  DATABASE_URL: databaseUrl,
  DATABASE_SCHEMA: schema,
  DEMO_EVENTS: String(events),
  LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'warn',
  ...(purging ? { CDN_PURGE_URLS: edgePorts.map((port) => `http://127.0.0.1:${port}/`).join(',') } : {}),
};
const nodes: PinnedProcess[] = [await startPinnedService(serviceDir, env)];
nodes.push(await startPinnedService(serviceDir, env));
const edges: ThrowawayVarnish[] = [];
for (const [i, node] of nodes.entries()) edges.push(await startThrowawayVarnish(Number(new URL(node.url).port), { port: edgePorts[i]! }));
// Whatever happens below, nothing of the bench stays running (an orphaned node would claim the next run's purges).
const db = await openDatabase({ url: databaseUrl, schema, dataDir: '', poolSize: 2 });
try {

  interface ExportedEvent {
    id: string;
    title_nb: string;
    venue?: string | null;
    [field: string]: unknown;
  }
  const exported = await (async () => {
    let text = '';
    await exportCalendar(db.db, new Writable({ write: (chunk: Buffer, _e, done) => ((text += chunk.toString()), done()) }));
    return JSON.parse(text) as { events: ExportedEvent[]; venues: { id: string; slug: string; [field: string]: unknown }[] };
  })();
  const eventsById = new Map(exported.events.map((e) => [e.id, e]));

  const get = (origin: string, query: string) => fetch(`${origin}/graphQL?query=${encodeURIComponent(query)}`, { headers: { 'service-require-preflight': 'true' } });
  const fromCopy = (response: Response) => (response.headers.get('x-varnish') ?? '').trim().split(/\s+/).length === 2;
  const eventPage = (id: string) => `{ eventByID(eventID: ${JSON.stringify(id)}) { id title_nb startDate venue { name } } }`;
  const listing = (slug: string) => `{ events(filter: { venueSlug: ${JSON.stringify(slug)} }, pageSize: 20) { totalCount data { id title_nb startDate } } }`;

  /** Polls `query` at every edge every 10 ms until `shows` holds at each; ms from `since`. A slow one prints what the edges said. */
  async function visibleAtEveryEdge(query: string, shows: (body: string) => boolean, since: number, timeoutMs = 120_000): Promise<number> {
    const pending = new Set(edges);
    const polls: string[] = [];
    while (pending.size > 0) {
      for (const edge of [...pending]) {
        const response = await get(edge.origin, query);
        const text = await response.text();
        const shown = response.status === 200 && shows(text);
        const line = `edge ${edges.indexOf(edge)} +${(performance.now() - since).toFixed(0)} ms: ${response.status} x-varnish ${response.headers.get('x-varnish')} age ${response.headers.get('age')} ${response.headers.get('cache-control')} ${shown ? 'new' : 'old'}`;
        if (polls.length < 40 || shown) polls.push(line);
        if (shown) pending.delete(edge);
      }
      if (performance.now() - since > timeoutMs) throw new Error(`not visible within ${timeoutMs} ms: ${query}`);
      if (pending.size > 0) await sleep(10);
    }
    const took = performance.now() - since;
    if (took > 2_000) console.log(`slow (${took.toFixed(0)} ms): ${query}\n  ${polls.join('\n  ')}`);
    return took;
  }

  const pageMs: number[] = [];
  const listingMs: number[] = [];
  const lagMs: number[] = [];
  const hitBefore: number[] = [];
  const hitAfter: number[] = [];
  const venueSlugs = exported.venues.map((v) => v.slug);
  const allIds = [...eventsById.keys()];

  for (let round = 1; round <= rounds; round++) {
    // A venue with upcoming events, and one event on its first page.
    let slug = '';
    let chosen: ExportedEvent | undefined;
    while (!chosen) {
      slug = venueSlugs[Math.floor(Math.random() * venueSlugs.length)]!;
      const page = (await (await get(nodes[0]!.url.replace(/\/graphQL$/, ''), listing(slug))).json()) as { data: { events: { data: { id: string }[] } } };
      const ids = page.data.events.data.map((e) => e.id);
      if (ids.length > 0) chosen = eventsById.get(ids[Math.floor(Math.random() * ids.length)]!);
    }
    const untouched = allIds.filter((id) => id !== chosen.id).sort(() => Math.random() - 0.5).slice(0, 200);
    const warm = [eventPage(chosen.id), listing(slug), ...untouched.map(eventPage)];
    for (const edge of edges) for (const query of warm) await (await get(edge.origin, query)).arrayBuffer();
    let hits = 0;
    for (const edge of edges) for (const id of untouched) if (fromCopy(await get(edge.origin, eventPage(id)))) hits += 1;
    hitBefore.push(hits / (2 * untouched.length));

    const title = `${chosen.title_nb.replace(/ \(runde \d+\)$/, '')} (runde ${round})`;
    chosen.title_nb = title;
    await importCalendar(db, { events: [chosen] });
    const committed = performance.now();
    const [page, list] = await Promise.all([
      visibleAtEveryEdge(eventPage(chosen.id), (body) => body.includes(title), committed),
      visibleAtEveryEdge(listing(slug), (body) => body.includes(title), committed),
    ]);
    pageMs.push(page);
    listingMs.push(list);

    hits = 0;
    for (const edge of edges) for (const id of untouched) if (fromCopy(await get(edge.origin, eventPage(id)))) hits += 1;
    hitAfter.push(hits / (2 * untouched.length));
    if (purging) {
      const lag = await db.db
        .selectFrom('data_version_purges')
        .select(sql<string>`extract(epoch from purged_at - committed_at) * 1000`.as('ms'))
        .where('purged_at', 'is not', null)
        .orderBy('version', 'desc')
        .limit(1)
        .executeTakeFirst();
      lagMs.push(Number(lag?.ms));
    }
    console.log(`round ${round}: page ${page.toFixed(0)} ms, listing ${list.toFixed(0)} ms, untouched from the edges ${(hitBefore.at(-1)! * 100).toFixed(1)} % → ${(hitAfter.at(-1)! * 100).toFixed(1)} %`);
  }

  if (process.env['BENCH_LOG_LEVEL']) for (const node of nodes) console.log(node.log().split('\n').filter((line) => /read model built|CDN purge|"level":[456]0/.test(line)).join('\n'));

  // A new venue in `venues`.
  const venuesQuery = '{ venues { slug name } }';
  for (const edge of edges) for (let i = 0; i < 2; i++) await (await get(edge.origin, venuesQuery)).arrayBuffer();
  await importCalendar(db, { venues: [{ id: 'BENCH-NEW-VENUE', slug: `bench-ny-scene-${Date.now()}`, name: 'Benkens nye scene', address: 'Gata 1', postalCode: '0150', municipality: 'Oslo' }] });
  // Without purging the list lives an hour at the edges: give up after a minute.
  const venuesMs = await visibleAtEveryEdge(venuesQuery, (body) => body.includes('Benkens nye scene'), performance.now(), 60_000).catch(() => Number.POSITIVE_INFINITY);

  // Both nodes stopped: the pages the edges hold, read through them.
  const held = [venuesQuery, ...allIds.slice(0, 20).map(eventPage)];
  for (const edge of edges) for (const query of held) await (await get(edge.origin, query)).arrayBuffer();
  for (const node of nodes) await node.stop();
  let answered = 0;
  let errors = 0;
  const stopAt = performance.now() + outageSeconds * 1000;
  while (performance.now() < stopAt) {
    for (const edge of edges) {
      for (const query of held) {
        const response = await get(edge.origin, query);
        await response.arrayBuffer();
        answered += 1;
        if (response.status !== 200) errors += 1;
      }
    }
    await sleep(500);
  }

  const ms = (values: number[]) => `p50 ${percentile(values, 0.5).toFixed(0)} / p95 ${percentile(values, 0.95).toFixed(0)} ms`;
  const share = (values: number[]) => `${(Math.min(...values) * 100).toFixed(1)}–${(Math.max(...values) * 100).toFixed(1)} %`;
  console.log(`\n${events} demo events, two nodes, two Varnish edges, ${rounds} imports each retitling one event; purging ${purging ? 'on' : 'off'}`);
  console.log(`event page new at both edges:      ${ms(pageMs)} after the import's commit`);
  console.log(`venue listing new at both edges:   ${ms(listingMs)}`);
  if (purging) console.log(`purge lag (commit → purged, db):   ${ms(lagMs)}`);
  console.log(`200 untouched pages from the edges: before ${share(hitBefore)}, after ${share(hitAfter)} (min–max of rounds)`);
  console.log(`new venue in \`venues\` at both edges: ${Number.isFinite(venuesMs) ? `${venuesMs.toFixed(0)} ms` : 'not within 60 s'}`);
  console.log(`origin stopped ${outageSeconds} s: ${answered} reads through the edges, ${errors} errors`);
} finally {
  for (const node of nodes) await node.stop();
  for (const edge of edges) await edge.stop();
  await db.close();
}
