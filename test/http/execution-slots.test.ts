import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { NOW, httpCalendar } from './fixtures/http-calendar.js';

const databaseUrl = process.env['DATABASE_URL'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The default EXECUTION_SLOTS (two): while one execution waits for the database, another runs. An
 * `events` page reads its records from PostgreSQL; with the `events` table locked by another session,
 * that read waits, and a request answered from the read model's memory alone must not wait behind it.
 * (With one slot it waited until the lock went or the statement timed out.) PostgreSQL only: the
 * embedded database has one connection, so nothing can hold a lock beside the service.
 */
describe.skipIf(!databaseUrl)('executions at once, by default', { timeout: 60_000 }, () => {
  let server: TestServer;
  let locker: pg.Client;

  beforeAll(async () => {
    server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
    locker = new pg.Client({ connectionString: databaseUrl, application_name: 'execution-slots-test' });
    await locker.connect();
    // The read model's first snapshot reads the events table too: built before the table is locked.
    for (let waited = 0; (await fetch(`${server.origin}/ready`)).status !== 200; waited += 50) {
      if (waited > 30_000) throw new Error('the service never became ready');
      await sleep(50);
    }
  });

  afterAll(async () => {
    await locker?.query('rollback').catch(() => undefined);
    await locker?.end();
    await server?.close();
  });

  it('answers a request from memory while another waits for its database read', async () => {
    const schema = server.database.schema;
    await locker.query('begin');
    await locker.query(`lock table "${schema}".events in access exclusive mode`);
    let pageSettled = false;
    const page = fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ events(pageSize: 5) { data { id title_nb } } }' }),
    }).then(async (response) => {
      pageSettled = true;
      return { status: response.status, body: await response.text() };
    });
    // The page's read is queued behind the lock (PostgreSQL says so) before the second request is sent.
    for (let waited = 0; ; waited += 20) {
      const { rows } = await locker.query<{ n: string }>(
        "select count(*) as n from pg_stat_activity where application_name = 'event-calendar-api' and wait_event_type = 'Lock'",
      );
      if (Number(rows[0]!.n) > 0) break;
      if (waited > 10_000) throw new Error('the page never waited for the lock');
      await sleep(20);
    }

    const categories = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ categories { id } }' }),
    });
    expect(categories.status).toBe(200);
    expect(((await categories.json()) as { data: { categories: unknown[] } }).data.categories.length).toBeGreaterThan(0);
    // Answered while the page still waits (with one slot it came only after the page had failed).
    expect(pageSettled).toBe(false);

    await locker.query('commit');
    const answered = await page;
    expect(answered.status).toBe(200);
    expect(answered.body).toContain('"title_nb"');
  });
});
