import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_MALLOC_ENV } from '../../src/cli/malloc-settings.js';
import { SERVE_V8_FLAGS } from '../../src/cli/serve-v8-flags.js';
import { generateDemoCalendar } from '../../src/demo/demo-calendar.js';
import { hashApiKey } from '../../src/domain/api-key-hash.js';
import { runCalendar } from '../cli/calendar-process.js';
import { asRole, dropRoles } from '../support/postgres-roles.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { postGraphQL, type GraphQLBody } from '../support/test-server.js';

const databaseUrl = process.env['DATABASE_URL'];
const ROLES_SQL = fileURLToPath(new URL('../../deploy/postgres/roles.sql', import.meta.url));

function psqlMissing(): boolean {
  try {
    execFileSync('psql', ['--version'], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
}
const unavailable = !databaseUrl ? 'they need a PostgreSQL server (DATABASE_URL)' : psqlMissing() ? 'they need psql (apt-get install postgresql-client)' : undefined;
if (unavailable) console.warn(`serving role tests skipped: ${unavailable}`);

const KEY = 'hsk_serving_role_7d1e9a4c2b';

/** Stands in for a Varnish edge (CDN_PURGE_URLS): answers every request 200 and keeps its method and tags. */
async function startEdge(): Promise<{ origin: string; purges: string[][]; server: Server }> {
  const purges: string[][] = [];
  const server = createServer((req, res) => {
    if (req.method === 'PURGE') purges.push(String(req.headers['surrogate-key'] ?? req.headers['xkey-purge'] ?? '').split(' '));
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, purges, server };
}

async function until<T>(check: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The answer's data, after checking it has no errors. */
function dataOf(answer: { status: number; body: GraphQLBody }): Record<string, unknown> {
  expect(answer.body.errors).toBeUndefined();
  expect(answer.status).toBe(200);
  return answer.body.data!;
}

/** The SQLSTATE a statement fails with, or 'succeeded'. */
async function sqlStateOf(client: pg.Client, statement: string): Promise<string> {
  try {
    await client.query(statement);
    return 'succeeded';
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
}

describe.skipIf(unavailable)('least privilege: calendar serve as the serving role of deploy/postgres/roles.sql (PostgreSQL)', { timeout: 180_000 }, () => {
  const suffix = randomBytes(6).toString('hex');
  const owner = `test_owner_${suffix}`;
  const serving = `test_serve_${suffix}`;
  const schema = `test_${suffix}`;
  let admin: pg.Client;
  let edge: Awaited<ReturnType<typeof startEdge>> | undefined;
  let service: ServiceProcess | undefined;
  let folder: string | undefined;
  let origin = '';

  const servingEnv = () => ({ DATABASE_URL: asRole(databaseUrl!, serving), DATABASE_SCHEMA: schema, MIGRATE: 'off' });
  const ownerEnv = () => ({ DATABASE_URL: asRole(databaseUrl!, owner), DATABASE_SCHEMA: schema, LOG_LEVEL: 'warn' });

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    // What a DBA runs once.
    await promisify(execFile)('psql', ['-X', '-q', '-v', `owner=${owner}`, '-v', `serving=${serving}`, '-v', `schema=${schema}`, '-d', databaseUrl!, '-f', ROLES_SQL]);
    // What the owner runs at each deploy: the migration, granting the serving role.
    const migrated = await runCalendar(['migrate'], { ...ownerEnv(), DATABASE_SERVING_ROLE: serving });
    expect(migrated.stderr).toBe('');
    expect(migrated.code).toBe(0);
  }, 180_000);

  afterAll(async () => {
    if (service && service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    if (edge) await new Promise((resolve) => edge!.server.close(resolve));
    if (folder) await rm(folder, { recursive: true, force: true });
    await admin.query(`drop schema if exists ${schema} cascade`);
    await dropRoles(admin, [owner, serving]);
    await admin.end();
  });

  it('stops at start with one line when DEMO_EVENTS asks for the demo on a calendar it may not write', async () => {
    const run = await runCalendar(['serve'], { ...servingEnv(), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DEMO_EVENTS: '20' });
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `calendar: The calendar holds no events, and the demo calendar cannot be seeded into it (permission denied for table venues: the role of DATABASE_URL may not ` +
        'write the calendar). Import the calendar first (`calendar import`, as the owning role), or unset DEMO_EVENTS to serve it empty.\n',
    );
    expect(run.code).toBe(1);
  });

  describe('with a calendar the owner imported', () => {
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'calendar-serving-role-'));
      const file = join(folder, 'calendar.json');
      const calendar = generateDemoCalendar({ events: 60, seed: 1, today: new Date() });
      await writeFile(file, JSON.stringify({ ...calendar, apiKeys: [{ key: KEY, application: 'Serving role test' }] }));
      const imported = await runCalendar(['import', file], { ...ownerEnv(), MIGRATE: 'off' });
      expect(imported.stderr).toBe('');
      expect(imported.code).toBe(0);

      edge = await startEdge();
      service = startServiceProcess(
        {
          ...servingEnv(),
          // Budgets on (caller costs are written either way), and an edge to purge after the import.
          RATE_LIMIT_ANONYMOUS: '100000',
          RATE_LIMIT_KEY: '100000',
          CDN_PURGE_URLS: `${edge.origin}/`,
          LOG_LEVEL: 'warn',
          // Launched as npm start does: its flags and allocator setting (no warning for either).
          ...SERVE_MALLOC_ENV,
        },
        { nodeArgs: SERVE_V8_FLAGS },
      );
      origin = new URL(await service.listening).origin;
    }, 180_000);

    it('answers every kind of request: events with filters and facets, search, suggest, eventByID, catalogues, changes, the feed', async () => {
      const url = `${origin}/graphQL`;
      const keyed = { 'x-api-key': KEY, 'x-client-id': 'serving-role-test/1' };

      const page = dataOf(
        await postGraphQL(
          url,
          {
            query: `query Page($filter: Filter) { events(filter: $filter, pageSize: 5) {
              totalCount data { id title_nb venue { name } } categories { id hits } venues { id hits } organizers { id hits } } }`,
            variables: { filter: { cancelledNotIncluded: true, mode: 'offline' } },
          },
          keyed,
        ),
      ).events as { totalCount: number; data: { id: string; title_nb: string }[]; categories: { hits: number }[]; venues: { hits: number }[] };
      expect(page.totalCount).toBeGreaterThan(0);
      expect(page.categories.length).toBeGreaterThan(0);
      expect(page.venues.length).toBeGreaterThan(0);

      const first = page.data[0]!;
      const word = first.title_nb.split(/[^\p{L}]+/u).sort((a, b) => b.length - a.length)[0]!;
      const search = dataOf(await postGraphQL(url, { query: 'query Search($term: String) { events(filter: { searchTerm: $term }) { totalCount } }', variables: { term: word } }, keyed));
      expect((search.events as { totalCount: number }).totalCount).toBeGreaterThan(0);
      // A typo: the trigram index and levenshtein of the extensions in schema public.
      const typo = `${word.slice(0, -2)}${word.at(-1)}${word.at(-2)}`;
      expect(dataOf(await postGraphQL(url, { query: `{ events(filter: { searchTerm: ${JSON.stringify(typo)} }) { totalCount } }` })).events).toBeDefined();

      const suggestions = dataOf(await postGraphQL(url, { query: 'query S($p: String!) { suggest(prefix: $p) { kind value hits } }', variables: { p: word.slice(0, 3) } }));
      expect((suggestions.suggest as unknown[]).length).toBeGreaterThan(0);

      const byId = dataOf(await postGraphQL(url, { query: 'query E($id: String!) { eventByID(eventID: $id) { id title_nb organizers { name } prices { price } } }', variables: { id: first.id } }, keyed));
      expect((byId.eventByID as { id: string }).id).toBe(first.id);

      const catalogues = dataOf(await postGraphQL(url, { query: '{ categories { id subCategories { id } } venues { id } organizers { id } }' }));
      expect((catalogues.categories as unknown[]).length).toBeGreaterThan(0);
      expect((catalogues.venues as unknown[]).length).toBeGreaterThan(0);
      expect((catalogues.organizers as unknown[]).length).toBeGreaterThan(0);

      const changes = dataOf(await postGraphQL(url, { query: '{ changes(pageSize: 5) { changed { id } cursor } }' }));
      expect((changes.changes as { changed: unknown[] }).changed.length).toBe(5);

      // Deprecated: counted in deprecated_uses, once per request.
      for (let i = 0; i < 2; i++) dataOf(await postGraphQL(url, { query: '{ events(filter: { sortBy: "startDate" }) { totalCount } }' }, keyed));

      const feed = await fetch(`${origin}/events.ics?categories=${encodeURIComponent(String((page.categories[0] as unknown as { id: string }).id))}`);
      expect(feed.status).toBe(200);
      expect(await feed.text()).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*BEGIN:VEVENT/);

      const ready = await fetch(`${origin}/ready`);
      expect(ready.status).toBe(200);
    });

    it('purges the CDN edge for the import (claims and marks in data_version_purges)', async () => {
      const purge = await until(() => edge!.purges[0]);
      expect(purge.length).toBeGreaterThan(0);
    });

    it('writes its counters, then stops cleanly with no warning (no write was refused)', async () => {
      expect(await service!.stop()).toBe(0);
      // LOG_LEVEL=warn: a refused write of the usage flush, the caller-cost pruning or the purge claims logs a line.
      expect(service!.stderr()).toBe('');

      const asOwner = new pg.Client({ connectionString: asRole(databaseUrl!, owner) });
      await asOwner.connect();
      try {
        const count = async (query: string, values: unknown[] = []) => Number((await asOwner.query<{ n: string }>(query, values)).rows[0]!.n);
        const keyHash = hashApiKey(KEY);
        // The keyed requests: the page, the search, eventByID and the two deprecated uses.
        expect(await count(`select coalesce(sum(requests), 0) as n from ${schema}.usage_counts where key_hash = $1`, [keyHash])).toBe(5);
        // Without a key: the search with a typo, suggest, the catalogues and changes (the feed is a cost, not a request count).
        expect(await count(`select coalesce(sum(requests), 0) as n from ${schema}.usage_counts where key_hash = ''`)).toBe(4);
        expect(await count(`select coalesce(sum(requests), 0) as n from ${schema}.deprecated_uses where coordinate = 'Filter.sortBy' and key_hash = $1`, [keyHash])).toBe(2);
        expect(await count(`select coalesce(sum(executions), 0) as n from ${schema}.caller_costs where key_hash = $1 and points > 0`, [keyHash])).toBeGreaterThanOrEqual(3);
        expect(await count(`select count(*) as n from ${schema}.caller_costs where caller like 'address:%'`)).toBe(1);
        expect(await count(`select count(*) as n from ${schema}.data_version_purges where purged_at is not null`)).toBe(1);
        expect(await count(`select count(*) as n from ${schema}.data_version_purges where purged_at is null`)).toBe(0);
      } finally {
        await asOwner.end();
      }
    });

    it('refuses the serving role every other write, and DDL (SQLSTATE 42501, permission denied)', async () => {
      const asServing = new pg.Client({ connectionString: asRole(databaseUrl!, serving), options: `-c search_path=${schema},public` });
      await asServing.connect();
      try {
        const refused = {
          'update events': await sqlStateOf(asServing, `update events set title_nb = 'Overskrevet'`),
          'delete from events': await sqlStateOf(asServing, 'delete from events'),
          'insert into api_keys': await sqlStateOf(asServing, `insert into api_keys (key_hash, key_prefix, application) values ('x', 'hsk_x', 'Uninvited')`),
          'update api_keys': await sqlStateOf(asServing, 'update api_keys set revoked = false'),
          'insert into data_version_purges': await sqlStateOf(asServing, 'insert into data_version_purges values (99, now(), false, false, false)'),
          'delete from usage_counts': await sqlStateOf(asServing, 'delete from usage_counts'),
          'truncate caller_costs': await sqlStateOf(asServing, 'truncate caller_costs'),
          'refresh materialized view search_words': await sqlStateOf(asServing, 'refresh materialized view search_words'),
          'create table': await sqlStateOf(asServing, 'create table serving_was_here (id int)'),
          'create table in public': await sqlStateOf(asServing, 'create table public.serving_was_here (id int)'),
          'create schema': await sqlStateOf(asServing, `create schema if not exists ${schema}`),
        };
        expect(refused).toEqual(Object.fromEntries(Object.keys(refused).map((statement) => [statement, '42501'])));
        // What it may write, it may (the flush's upsert).
        expect(await sqlStateOf(asServing, `insert into usage_counts values ('2000-01-01', '', '', '', 1) on conflict (day, key_hash, client_id, page_origin) do update set requests = usage_counts.requests + 1`)).toBe('succeeded');
      } finally {
        await asServing.end();
      }
    });
  });
});
