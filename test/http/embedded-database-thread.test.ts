import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

// The embedded database only: PostgreSQL runs in its own processes anyway.
describe.skipIf(Boolean(process.env['DATABASE_URL']))('the embedded database runs off the main thread', { timeout: 60_000 }, () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ calendar: httpCalendar, clock: () => NOW });
  });
  afterAll(async () => server?.close());

  it('answers /health at once while a statement holds the database for seconds', async () => {
    const heavyStarted = performance.now();
    const heavy = sql`select count(*) from generate_series(1, 15000000)`.execute(server.database.db);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const healthStarted = performance.now();
    const health = await fetch(`${server.origin}/health`);
    const healthMs = performance.now() - healthStarted;
    // /ready asks the database, which is busy: it says so within a second instead of waiting.
    const readyStarted = performance.now();
    const ready = await fetch(`${server.origin}/ready`);
    const readyMs = performance.now() - readyStarted;
    await heavy;
    const heavyMs = performance.now() - heavyStarted;
    expect(health.status).toBe(200);
    expect(heavyMs).toBeGreaterThan(1500);
    // On the main thread /health would have waited for the statement to end.
    expect(healthMs).toBeLessThan(250);
    expect(ready.status).toBe(503);
    expect(readyMs).toBeLessThan(1200);
    expect((await fetch(`${server.origin}/ready`)).status).toBe(200);
  });

  it('keeps SQLSTATE codes on errors that cross from the database thread', async () => {
    await expect(sql`select * from no_such_table`.execute(server.database.db)).rejects.toMatchObject({ code: '42P01' });
  });
});
