import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel } from '../support/test-database.js';
import { postGraphQL, startTestServer, type TestServer } from '../support/test-server.js';
import { httpCalendar, NOW } from './fixtures/http-calendar.js';

/**
 * A failure the client only sees masked ("the failure has been logged") must be findable in the log:
 * its error line carries the request id the response's X-Request-Id header gives the caller (and
 * the access-log line too), with the failure itself, which the response never shows.
 */
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ calendar: httpCalendar, clock: () => NOW, logger: pino({ level: 'info', base: undefined }, sink) });
});
afterAll(async () => server?.close());

describe(`log line of a masked failure (${databaseLabel})`, () => {
  it('names the request id the caller was given, and the failure the caller was not shown', async () => {
    await postGraphQL(server.url, { query: '{ categories { id } }' });
    // A real failure: the events table is away while the query runs (slugs are looked up in it).
    await sql`alter table events rename to events_away`.execute(server.database.db);
    let requestId: string | null;
    try {
      const res = await fetch(server.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'support-ticket-4711' },
        body: JSON.stringify({ query: '{ eventBySlug(eventSlug: "anything") { id } }' }),
      });
      requestId = res.headers.get('x-request-id');
      const body = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(body.errors[0]!.extensions.code).toBe('INTERNAL_SERVER_ERROR');
      expect(JSON.stringify(body)).not.toMatch(/events_away|relation/);
    } finally {
      await sql`alter table events_away rename to events`.execute(server.database.db);
    }
    expect(requestId).toBe('support-ticket-4711');
    for (let waited = 0; waited < 2000 && !lines.some((l) => l['msg'] === 'resolver failed'); waited += 20) await new Promise((r) => setTimeout(r, 20));
    const failure = lines.find((l) => l['msg'] === 'resolver failed');
    expect(failure).toMatchObject({ reqId: 'support-ticket-4711', path: ['eventBySlug'] });
    expect(JSON.stringify(failure!['err'])).toMatch(/events/);
  });
});
