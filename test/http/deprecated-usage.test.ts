import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSharedDatabase } from '../support/shared-database.js';
import { databaseLabel } from '../support/test-database.js';
import { parseMetrics } from '../support/prometheus-metrics.js';
import { getGraphQL, postGraphQL, startTestServer } from '../support/test-server.js';
import { httpCalendar, NOW, VALID_KEY } from './fixtures/http-calendar.js';

const repoRoot = new URL('../../', import.meta.url);

const LITERAL = '{ events(filter: { sortBy: "startDate", categories: ["CONCERT"] }) { totalCount } }';
const WITH_VARIABLES = 'query Page($filter: Filter) { events(filter: $filter) { totalCount } }';
const SORTED = { filter: { sortBy: 'startDate', categories: ['CONCERT'] } };
const UNSORTED = { filter: { categories: ['CONCERT'] } };
// A trusted document, by its hash: its text never travels, yet the variables still say sortBy.
const manifest = JSON.parse(readFileSync(new URL('generated/persisted-documents.json', repoRoot), 'utf8')) as Record<string, string>;
const EVENTS_PAGE_ID = Object.keys(manifest).find((id) => manifest[id]!.startsWith('query EventsPage'))!;

const keyed = { 'x-api-key': VALID_KEY, 'x-client-id': 'kalender-web/2.1', 'x-page-url': 'https://www.lokalavisa.example/kultur?side=2' };
const script = { 'x-client-id': 'skript/1' };
const preflight = { 'service-require-preflight': 'true' };

async function metricValues(origin: string) {
  const metrics = parseMetrics(await (await fetch(`${origin}/metrics`)).text());
  return {
    sortBy: metrics.value('calendar_deprecated_uses_total', { coordinate: 'Filter.sortBy' }),
    hits: metrics.value('calendar_response_cache_lookups_total', { outcome: 'hit' }),
    declared: metrics.sample('calendar_deprecated_uses_total', { coordinate: 'Filter.sortBy' }) !== undefined,
  };
}

describe(`deprecated uses (${databaseLabel})`, () => {
  it('counts every request that sets Filter.sortBy (POST and cached GET, in the text and through variables) per caller, and `calendar usage --deprecated` prints them', async () => {
    const shared = await createSharedDatabase('deprecated');
    try {
      const server = await startTestServer({ database: shared.database, calendar: httpCalendar, clock: () => NOW, usageFlushIntervalMs: 60_000 });
      let before: Awaited<ReturnType<typeof metricValues>>;
      let after: typeof before;
      try {
        before = await metricValues(server.origin);
        // The key's application: 7 requests that set sortBy, 4 of them answered from the response cache
        // (the POST with variables by the meaning of the GET before it: the same document and variables).
        for (let i = 0; i < 2; i++) expect((await postGraphQL(server.url, { query: LITERAL }, keyed)).body.data).toBeTruthy();
        for (let i = 0; i < 2; i++) expect((await getGraphQL(server.url, { query: WITH_VARIABLES, variables: SORTED }, { ...preflight, ...keyed })).status).toBe(200);
        for (let i = 0; i < 2; i++) {
          const page = await getGraphQL(server.url, { documentId: EVENTS_PAGE_ID, variables: { filter: { sortBy: 'title' } } }, { ...preflight, ...keyed });
          expect(page.body.data).toBeTruthy();
        }
        expect((await postGraphQL(server.url, { query: WITH_VARIABLES, variables: SORTED }, keyed)).status).toBe(200);
        // A script without a key: 4 requests that set sortBy, 3 of them hits of answers the key's requests produced.
        expect((await postGraphQL(server.url, { query: WITH_VARIABLES, variables: { filter: { sortBy: 'x' } } }, script)).status).toBe(200);
        for (let i = 0; i < 2; i++) expect((await getGraphQL(server.url, { query: LITERAL }, { ...preflight, ...script })).status).toBe(200);
        expect((await getGraphQL(server.url, { query: WITH_VARIABLES, variables: SORTED }, { ...preflight, ...script })).status).toBe(200);
        // Without sortBy, executed and cached alike: not a use.
        for (let i = 0; i < 2; i++) await getGraphQL(server.url, { query: WITH_VARIABLES, variables: UNSORTED }, { ...preflight, ...keyed });
        await postGraphQL(server.url, { query: '{ events(filter: { categories: ["CONCERT"] }) { totalCount } }' }, script);
        after = await metricValues(server.origin);
      } finally {
        // Writes what is counted (usage is flushed on close).
        await server.close();
      }
      // Without per-key labels; the coordinate is there before its first use.
      expect(before.declared).toBe(true);
      expect(after.sortBy - before.sortBy).toBe(11);
      // The key's 4, the script's 3, the second unsorted GET.
      expect(after.hits - before.hits).toBe(8);
      await shared.release();

      const table = await shared.calendar(['usage', '--deprecated', '--days', '1'], NOW);
      const lines = table.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^deprecated\s+caller\s+client id\s+page origin\s+requests\s+first day\s+last day$/);
      expect(lines[1]).toMatch(/^Filter\.sortBy\s+Transport test app \(\S+…\)\s+kalender-web\/2\.1\s+https:\/\/www\.lokalavisa\.example\s+7\s+2026-05-04\s+2026-05-04$/);
      expect(lines[2]).toMatch(/^Filter\.sortBy\s+anonymous\s+skript\/1\s+-\s+4\s+2026-05-04\s+2026-05-04$/);
      expect(lines).toHaveLength(3);

      const json = await shared.calendar(['usage', '--deprecated', '--json'], NOW);
      const rows = JSON.parse(json.stdout) as { coordinate: string; requests: number; application: string | null }[];
      expect(rows.map((r) => [r.coordinate, r.application, r.requests])).toEqual([
        ['Filter.sortBy', 'Transport test app', 7],
        ['Filter.sortBy', null, 4],
      ]);
      // The plain report still counts every request, sortBy or not.
      const usage = await shared.calendar(['usage', '--json'], NOW);
      expect((JSON.parse(usage.stdout) as { requests: number }[]).reduce((n, r) => n + r.requests, 0)).toBe(14);
    } finally {
      await shared.remove();
    }
  }, 120_000);

  it('says so when no request used a deprecated coordinate, and names the unused ones', async () => {
    const shared = await createSharedDatabase('deprecated-none');
    try {
      await shared.release();
      const out = await shared.calendar(['usage', '--deprecated', '--days', '7'], NOW);
      expect(out.stdout).toBe('No request used a deprecated coordinate since 2026-04-28.\nDeprecated and not used since 2026-04-28: Filter.sortBy\n');
    } finally {
      await shared.remove();
    }
  }, 120_000);
});
