import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { importCalendar } from '../../src/import/import-calendar.js';
import { createLogger } from '../../src/logger.js';
import { createEnveloped } from '../../src/plugins/index.js';
import { ReadModel } from '../../src/read-model/read-model.js';
import type { GetEnveloped } from '../../src/plugins/get-enveloped.js';
import { buildExecutableSchema } from '../../src/schema/executable-schema.js';
import type { GraphQLContext } from '../../src/schema/context.js';
import { createGraphQLRunner, type GraphQLRunner } from '../support/graphql-runner.js';
import { createTestDatabase, databaseLabel } from '../support/test-database.js';

/*
 * Seen from Wednesday 25 March 2026, noon in Oslo (+01:00), four days before summer time starts
 * (Sunday 29 March, 02:00 → 03:00). One event per edge of a preset's window.
 */
const WEDNESDAY_NOON = new Date('2026-03-25T12:00:00+01:00');

const event = (id: string, start: string, end?: string) => ({
  id,
  slug: id.toLowerCase(),
  title_nb: `Tittel ${id}`,
  categories: ['CONCERT'],
  venue: 'V',
  created_at: '2026-01-01T10:00:00+01:00',
  updated_at: '2026-01-01T10:00:00+01:00',
  dates: [{ start, ...(end ? { end } : {}) }],
});

const calendar = {
  categories: [{ id: 'CONCERT', name_nb: 'Konsert', name_en: 'Concert', slug_nb: 'konsert', slug_en: 'concert' }],
  venues: [{ id: 'V', slug: 'v', name: 'Scene', location: { latitude: 59.91, longitude: 10.75 } }],
  events: [
    event('ENDED-THIS-MORNING', '2026-03-25T09:00:00+01:00', '2026-03-25T10:00:00+01:00'),
    // No end time, started two hours before now: still going on (three-hour rule).
    event('NO-END-10', '2026-03-25T10:00:00+01:00'),
    event('BEFORE-EVENING', '2026-03-25T16:59:00+01:00', '2026-03-25T16:59:30+01:00'),
    event('EVENING', '2026-03-25T19:00:00+01:00', '2026-03-25T21:00:00+01:00'),
    // No end time at 22:30: still going on at midnight, so tomorrow lists it too.
    event('NO-END-2230', '2026-03-25T22:30:00+01:00'),
    event('AFTER-MIDNIGHT', '2026-03-26T01:00:00+01:00', '2026-03-26T03:00:00+01:00'),
    event('THURSDAY-MORNING', '2026-03-26T05:00:00+01:00', '2026-03-26T06:00:00+01:00'),
    event('FRIDAY-AFTERNOON', '2026-03-27T15:00:00+01:00', '2026-03-27T16:00:00+01:00'),
    event('FRIDAY-EVENING', '2026-03-27T18:00:00+01:00', '2026-03-27T20:00:00+01:00'),
    // The night summer time starts: 04:30 is before the night's end (05:00 +02:00), 05:00 is not.
    event('SUNDAY-0430', '2026-03-29T04:30:00+02:00', '2026-03-29T04:45:00+02:00'),
    event('SUNDAY-0500', '2026-03-29T05:00:00+02:00', '2026-03-29T05:30:00+02:00'),
    event('SUNDAY-LATE', '2026-03-29T23:30:00+02:00', '2026-03-29T23:45:00+02:00'),
    event('MONDAY-MIDNIGHT', '2026-03-30T00:00:00+02:00', '2026-03-30T01:00:00+02:00'),
    event('TUESDAY-LATE', '2026-03-31T23:59:00+02:00', '2026-04-01T00:30:00+02:00'),
    event('APRIL-FIRST', '2026-04-01T00:00:00+02:00', '2026-04-01T01:00:00+02:00'),
    // Running from last week to the end of the month.
    event('LONG-RUN', '2026-03-20T10:00:00+01:00', '2026-03-31T18:00:00+02:00'),
  ],
};

let database: DatabaseHandle;
let run: GraphQLRunner;
let clock = WEDNESDAY_NOON;

beforeAll(async () => {
  database = await createTestDatabase();
  await importCalendar(database, calendar);
  run = createGraphQLRunner(database, () => clock);
});
afterAll(async () => {
  await run?.close();
  await database?.close();
});

const PAGE = `query ($filter: Filter) { events(filter: $filter, pageSize: 100) { totalCount data { id startDate } } }`;

async function idsFor(when: string, at = WEDNESDAY_NOON, extra: Record<string, unknown> = {}): Promise<string[]> {
  clock = at;
  const result = await run(PAGE, { filter: { when, ...extra } });
  expect(result.errors, when).toBeUndefined();
  const page = (result.data as { events: { totalCount: number; data: { id: string }[] } }).events;
  expect(page.totalCount).toBe(page.data.length);
  return page.data.map((n) => n.id);
}

describe(`events filter (${databaseLabel}): when`, () => {
  it('TODAY: what is still going on now and starts before Oslo midnight', async () => {
    expect(await idsFor('TODAY')).toEqual(['LONG-RUN', 'NO-END-10', 'BEFORE-EVENING', 'EVENING', 'NO-END-2230']);
  });

  it('TONIGHT: from 17:00 to 05:00 the next morning', async () => {
    expect(await idsFor('TONIGHT')).toEqual(['LONG-RUN', 'EVENING', 'NO-END-2230', 'AFTER-MIDNIGHT']);
  });

  it('TONIGHT after midnight is the night under way', async () => {
    expect(await idsFor('TONIGHT', new Date('2026-03-26T00:30:00+01:00'))).toEqual(['LONG-RUN', 'NO-END-2230', 'AFTER-MIDNIGHT']);
  });

  it('TONIGHT across the spring change ends at 05:00 summer time', async () => {
    expect(await idsFor('TONIGHT', new Date('2026-03-28T20:00:00+01:00'))).toEqual(['LONG-RUN', 'SUNDAY-0430']);
  });

  it('TOMORROW: from the next midnight, with what is still going on then', async () => {
    expect(await idsFor('TOMORROW')).toEqual(['LONG-RUN', 'NO-END-2230', 'AFTER-MIDNIGHT', 'THURSDAY-MORNING']);
  });

  it('THIS_WEEKEND: Friday 17:00 to Monday 00:00, across the spring change', async () => {
    expect(await idsFor('THIS_WEEKEND')).toEqual(['LONG-RUN', 'FRIDAY-EVENING', 'SUNDAY-0430', 'SUNDAY-0500', 'SUNDAY-LATE']);
    // During the weekend: the same weekend, from now.
    expect(await idsFor('THIS_WEEKEND', new Date('2026-03-29T12:00:00+02:00'))).toEqual(['LONG-RUN', 'SUNDAY-LATE']);
  });

  it('NEXT_7_DAYS: today and six more Oslo days', async () => {
    expect(await idsFor('NEXT_7_DAYS')).toEqual([
      'LONG-RUN', 'NO-END-10', 'BEFORE-EVENING', 'EVENING', 'NO-END-2230', 'AFTER-MIDNIGHT', 'THURSDAY-MORNING',
      'FRIDAY-AFTERNOON', 'FRIDAY-EVENING', 'SUNDAY-0430', 'SUNDAY-0500', 'SUNDAY-LATE', 'MONDAY-MIDNIGHT', 'TUESDAY-LATE',
    ]);
  });

  it('THIS_MONTH: until the first Oslo midnight of April', async () => {
    const ids = await idsFor('THIS_MONTH');
    expect(ids).toContain('TUESDAY-LATE');
    expect(ids).not.toContain('APRIL-FIRST');
    expect(ids).not.toContain('ENDED-THIS-MORNING');
  });

  it('combines with the other filters (fromStartDate too)', async () => {
    expect(await idsFor('TODAY', WEDNESDAY_NOON, { fromStartDate: '2026-03-25 17:00:00+01:00' })).toEqual(['EVENING', 'NO-END-2230']);
  });

  it('refuses when with fromDate or untilDate, naming them', async () => {
    for (const [extra, invalidArgs] of [
      [{ fromDate: '2026-03-25 00:00:00+01:00' }, ['when', 'fromDate']],
      [{ untilDate: '2026-03-26 00:00:00+01:00' }, ['when', 'untilDate']],
      [{ fromDate: '2026-03-25 00:00:00+01:00', untilDate: '2026-03-26 00:00:00+01:00' }, ['when', 'fromDate', 'untilDate']],
    ] as const) {
      const result = await run(PAGE, { filter: { when: 'TODAY', ...extra } });
      expect(result.data).toBeNull();
      expect(result.errors?.[0]?.message).toBe('Query Arguments invalid');
      expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(result.errors?.[0]?.extensions?.['invalidArgs']).toEqual(invalidArgs);
      expect(result.errors?.[0]?.extensions?.['detail']).toBe('when cannot be combined with fromDate or untilDate');
    }
  });

  it('refuses an unknown preset (GraphQL validation)', async () => {
    const result = await run(PAGE, { filter: { when: 'YESTERDAY' } });
    expect(result.errors?.[0]?.message).toMatch(/YESTERDAY/);
  });
});

describe(`events filter (${databaseLabel}): when bounds the response's freshness`, () => {
  let pipelineNow = WEDNESDAY_NOON;
  let getEnveloped: GetEnveloped | undefined;
  let readModel: ReadModel | undefined;
  afterAll(async () => readModel?.close());

  /** Executes through the service's pipeline and returns the context's `freshUntil` afterwards. */
  async function freshUntilAfter(query: string, variables: Record<string, unknown>, now: Date): Promise<Date | null> {
    pipelineNow = now;
    if (!readModel) {
      readModel = new ReadModel({ db: database.db, clock: () => pipelineNow, logger: createLogger('silent'), committedImports: database.committedImports });
      await readModel.start();
    }
    getEnveloped ??= createEnveloped({
      schema: buildExecutableSchema(),
      db: database.db,
      readModel,
      logger: createLogger('silent'),
      clock: () => pipelineNow,
      eventLinkBase: 'https://kalender.example.no/arrangement',
    });
    const { contextFactory, execute, schema } = getEnveloped({});
    const context = (await contextFactory()) as GraphQLContext;
    const result = await execute({ schema, document: parse(query), contextValue: context, variableValues: variables });
    expect(result.errors).toBeUndefined();
    return context.freshUntil.instant();
  }

  it('ends at the preset window’s next boundary', async () => {
    expect(await freshUntilAfter(PAGE, { filter: { when: 'TODAY' } }, WEDNESDAY_NOON)).toEqual(new Date('2026-03-26T00:00:00+01:00'));
    expect(await freshUntilAfter(PAGE, { filter: { when: 'TONIGHT' } }, WEDNESDAY_NOON)).toEqual(new Date('2026-03-26T05:00:00+01:00'));
    expect(await freshUntilAfter(PAGE, { filter: { when: 'THIS_WEEKEND' } }, WEDNESDAY_NOON)).toEqual(new Date('2026-03-30T00:00:00+02:00'));
    // Across the spring change: Saturday's "today" ends at midnight +01:00, Sunday's at midnight +02:00.
    expect(await freshUntilAfter(PAGE, { filter: { when: 'TODAY' } }, new Date('2026-03-29T12:00:00+02:00'))).toEqual(new Date('2026-03-30T00:00:00+02:00'));
  });

  it('takes the earliest boundary of several preset fields, and none without a preset', async () => {
    const two = `query { a: events(filter: { when: THIS_MONTH }) { totalCount } b: events(filter: { when: TOMORROW }) { totalCount } }`;
    expect(await freshUntilAfter(two, {}, WEDNESDAY_NOON)).toEqual(new Date('2026-03-26T00:00:00+01:00'));
    expect(await freshUntilAfter(PAGE, { filter: {} }, WEDNESDAY_NOON)).toBeNull();
  });
});
