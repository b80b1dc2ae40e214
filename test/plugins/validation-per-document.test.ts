import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/open-database.js';
import { createLogger } from '../../src/logger.js';
import type { GetEnveloped } from '../../src/plugins/get-enveloped.js';
import { createEnveloped } from '../../src/plugins/index.js';
import { ReadModel } from '../../src/read-model/read-model.js';
import { buildExecutableSchema } from '../../src/schema/executable-schema.js';
import { createTestDatabase } from '../support/test-database.js';

let database: DatabaseHandle;
let readModel: ReadModel;
let getEnveloped: GetEnveloped;

beforeAll(async () => {
  database = await createTestDatabase();
  const logger = createLogger('silent');
  readModel = new ReadModel({ db: database.db, clock: () => new Date(), logger });
  getEnveloped = createEnveloped({ schema: buildExecutableSchema(), db: database.db, readModel, logger, eventLinkBase: 'https://kalender.example.no/arrangement' });
});
afterAll(async () => {
  await readModel?.close();
  await database?.close();
});

/** What the pipeline's validation answers for a text, parsed by the pipeline (its parser cache). */
function validateText(text: string) {
  const { parse, validate, schema } = getEnveloped({});
  return validate(schema, parse(text));
}

describe('validation kept per parsed document', () => {
  it('validates a repeated text once: the second request gets the first result', () => {
    const first = validateText('{ categories { id name_nb } }');
    expect(first).toEqual([]);
    expect(validateText('{ categories { id name_nb } }')).toBe(first);
    // Another text is validated on its own.
    expect(validateText('{ categories { id } }')).not.toBe(first);
  });

  it('keeps failures too, with the descriptive message every time', () => {
    const text = '{ events(pageSize: "many") { totalCount } }';
    const first = validateText(text).map((e) => e.message);
    expect(first.length).toBeGreaterThan(0);
    expect(first.join('\n')).toContain('argument "pageSize" of field "events"');
    expect(validateText(text).map((e) => e.message)).toEqual(first);
  });

  it('runs every rule: the limits and the read-only rule still refuse what they refuse', () => {
    expect(validateText('mutation { categories { id } }').map((e) => e.message).join('\n')).toMatch(/mutation|read-only|Mutation/i);
    expect(validateText('{ nope }').map((e) => e.message).join('\n')).toContain('Cannot query field "nope"');
  });
});
