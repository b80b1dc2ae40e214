import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdnTagHeader } from '../../src/http/cdn-tag-header.js';
import { eventTag } from '../../src/domain/answer-tags.js';
import { databaseLabel } from '../support/test-database.js';
import { getGraphQL, postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW, UNKNOWN_KEY } from './fixtures/http-calendar.js';

/** The tags of a `Surrogate-Key` header, as a set (their order means nothing to a CDN). */
const tagsOf = (value: string | null) => new Set((value ?? '').split(' ').filter(Boolean));

describe(`CDN tags on cacheable answers (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
  });
  afterAll(async () => server?.close());

  it('tags an event list with `events` and the catalogues its nodes and facets show', async () => {
    const res = await getGraphQL(server.url, { query: '{ events { totalCount data { id venue { name } } } }' });
    expect(res.status).toBe(200);
    expect(tagsOf(res.headers.get('surrogate-key'))).toEqual(new Set(['all', 'events', 'venues', 'organizers', 'categories']));
  });

  it('tags one event’s answer with that event, not with `events`, so other imports leave it cached', async () => {
    for (const query of ['{ eventByID(eventID: "E-2") { title_nb } }', '{ eventBySlug(eventSlug: "e-2") { title_nb } }']) {
      const res = await getGraphQL(server.url, { query });
      expect(tagsOf(res.headers.get('surrogate-key')), query).toEqual(new Set(['all', 'event-E-2', 'venues', 'organizers']));
    }
    // No such event yet: any import may add it.
    const missing = await getGraphQL(server.url, { query: '{ eventBySlug(eventSlug: "not-yet") { id } }' });
    expect(tagsOf(missing.headers.get('surrogate-key'))).toEqual(new Set(['all', 'events', 'venues', 'organizers']));
  });

  it('keeps the tags on a cache hit and a 304, and tags each catalogue alone', async () => {
    const query = '{ venues { slug } }';
    const first = await getGraphQL(server.url, { query });
    expect(first.headers.get('surrogate-key')).toBe('all venues');
    const hit = await getGraphQL(server.url, { query });
    expect(hit.headers.get('surrogate-key')).toBe('all venues');
    const revalidated = await getGraphQL(server.url, { query }, { 'service-require-preflight': 'true', 'if-none-match': hit.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('surrogate-key')).toBe('all venues');
  });

  it('tags feeds like event lists', async () => {
    const res = await fetch(`${server.origin}/events.ics?categories=CONCERT`);
    expect(res.status).toBe(200);
    expect(tagsOf(res.headers.get('surrogate-key'))).toEqual(new Set(['all', 'events', 'venues', 'organizers', 'categories']));
  });

  it('sends no tags where no shared cache keeps the answer: POST, a caller’s notice, errors', async () => {
    const post = await postGraphQL(server.url, { query: '{ events { totalCount } }' });
    expect(post.status).toBe(200);
    expect(post.headers.get('surrogate-key')).toBeNull();
    const noticed = await getGraphQL(server.url, { query: '{ events { totalCount } }', key: UNKNOWN_KEY });
    expect(noticed.headers.get('surrogate-key')).toBeNull();
    const invalid = await getGraphQL(server.url, { query: '{ events(page: -1) { totalCount } }' });
    expect(invalid.headers.get('surrogate-key')).toBeNull();
  });
});

describe(`CDN tag header dialects (${databaseLabel})`, () => {
  it('writes Cloudflare’s Cache-Tag comma-separated, or no tag header at all, as CDN_TAG_HEADER says', async () => {
    const cloudflare = await startTestServer({ calendar: httpCalendar, clock: () => NOW, env: { CDN_TAG_HEADER: 'Cache-Tag' } });
    try {
      const res = await getGraphQL(cloudflare.url, { query: '{ eventByID(eventID: "E-1") { id } }' });
      expect(res.headers.get('surrogate-key')).toBeNull();
      expect(new Set(res.headers.get('cache-tag')!.split(','))).toEqual(new Set(['all', 'event-E-1', 'venues', 'organizers']));
    } finally {
      await cloudflare.close();
    }
    const untagged = await startTestServer({ calendar: httpCalendar, clock: () => NOW, env: { CDN_TAG_HEADER: 'none' } });
    try {
      const res = await getGraphQL(untagged.url, { query: '{ categories { id } }' });
      expect(res.status).toBe(200);
      for (const name of ['surrogate-key', 'cache-tag', 'edge-cache-tag']) expect(res.headers.get(name)).toBeNull();
    } finally {
      await untagged.close();
    }
  });

  it('keeps within each CDN’s limits: an answer whose tags do not fit falls back to `events`', () => {
    const many = Array.from({ length: 200 }, (_, i) => eventTag(`E-${i}`));
    // Akamai: at most 128 tags of 128 bytes.
    expect(cdnTagHeader('Edge-Cache-Tag', [...many, 'venues'])).toEqual({ 'Edge-Cache-Tag': 'all,events,venues' });
    expect(cdnTagHeader('Edge-Cache-Tag', [eventTag('E-1'), 'venues'])).toEqual({ 'Edge-Cache-Tag': 'all,event-E-1,venues' });
    // Fastly: 16 384 bytes in all.
    const huge = Array.from({ length: 2_000 }, (_, i) => eventTag(`EVENT-${String(i).padStart(6, '0')}`));
    expect(cdnTagHeader('Surrogate-Key', huge)).toEqual({ 'Surrogate-Key': 'all events' });
    expect(cdnTagHeader('Surrogate-Key', [])).toBeUndefined();
  });

  it('tags an event whose id a CDN could not take as it is by a digest of the id', () => {
    expect(eventTag('E-1')).toBe('event-E-1');
    const spaced = eventTag('Konsert i parken, 2026');
    expect(spaced).toMatch(/^event_[\w-]{22}$/);
    expect(eventTag('Konsert i parken, 2026')).toBe(spaced);
    expect(eventTag('Konsert i parken, 2027')).not.toBe(spaced);
  });
});

describe.skipIf(!process.env['DATABASE_URL'])('answers of a node still reading a newer import (PostgreSQL: another session holds the import back)', () => {
  it('say max-age=0 and carry no tags, so that an edge purged for that import does not keep them; then cacheable again', async () => {
    const server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
    const { default: pg } = await import('pg');
    const blocker = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
    await blocker.connect();
    try {
      const query = '{ categories { id } }';
      expect((await getGraphQL(server.url, { query })).headers.get('cache-control')).toMatch(/^public, max-age=\d+, s-maxage=\d+/);
      // The node's next snapshot reads the venues: a session that locks them holds its build back,
      // while a new data version is announced (the trigger's notice, as an import's commit sends).
      await blocker.query('begin');
      await blocker.query(`lock table ${server.database.schema}.venues in access exclusive mode`);
      await sql`update calendar_state set version = version + 1`.execute(server.database.db);
      let outdated = await getGraphQL(server.url, { query });
      for (let i = 0; i < 50 && !/max-age=0,/.test(outdated.headers.get('cache-control') ?? ''); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        outdated = await getGraphQL(server.url, { query });
      }
      expect(outdated.status).toBe(200);
      expect(outdated.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=0, stale-if-error=86400');
      expect(outdated.headers.get('surrogate-key')).toBeNull();
      expect(outdated.headers.get('etag')).toBeTruthy();

      await blocker.query('rollback');
      let fresh = await getGraphQL(server.url, { query });
      for (let i = 0; i < 100 && /max-age=0,/.test(fresh.headers.get('cache-control') ?? ''); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        fresh = await getGraphQL(server.url, { query });
      }
      expect(fresh.headers.get('cache-control')).toMatch(/^public, max-age=[1-9]\d*, s-maxage=[1-9]\d*/);
      expect(fresh.headers.get('surrogate-key')).toBe('all categories');
    } finally {
      await blocker.end();
      await server.close();
    }
  });
});
