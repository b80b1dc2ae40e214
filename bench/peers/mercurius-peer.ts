/**
 * The peer of bench/peers.ts: Fastify + Mercurius with graphql-jit serving this project's schema,
 * resolvers, read model and context over the same database, so that what differs from the service is
 * the pipeline around execution alone. Opens the database of DATABASE_URL / DATABASE_SCHEMA (the
 * service migrated and seeded it), builds the read model, and prints `listening on <url>` when ready.
 *
 *   node bench/peers/run-ts.js bench/peers/mercurius-peer.ts     (bench/peers.ts starts it)
 */
import Fastify from 'fastify';
import mercurius from 'mercurius';
import { openDatabase } from '../../src/db/open-database.js';
import { AnswerTags } from '../../src/domain/answer-tags.js';
import { FreshUntil } from '../../src/domain/fresh-until.js';
import { createLogger } from '../../src/logger.js';
import { CalendarReader } from '../../src/read-model/calendar-reader.js';
import { ReadModel } from '../../src/read-model/read-model.js';
import type { GraphQLContext } from '../../src/schema/context.js';
import { buildExecutableSchema } from '../../src/schema/executable-schema.js';
import { createLoaders } from '../../src/schema/loaders.js';

const url = process.env['DATABASE_URL'];
if (!url) throw new Error('DATABASE_URL is needed: the peer reads the database the service seeded');
const logger = createLogger('warn');
const database = await openDatabase({ url, dataDir: 'memory://', schema: process.env['DATABASE_SCHEMA'] ?? 'public', logger });
const clock = () => new Date();
const readModel = new ReadModel({ db: database.readDb, clock, logger, listen: database.listenForDataVersions });
await readModel.start();
const db = database.readDb;

const app = Fastify({ logger: false });
await app.register(mercurius, {
  schema: buildExecutableSchema(),
  // Compiled with graphql-jit from a document's first use on.
  jit: 1,
  // The context useCalendarContext builds for the service, per request.
  context: (): GraphQLContext => {
    const now = clock();
    const calendar = new CalendarReader(readModel, db, now);
    return {
      db,
      now,
      calendar,
      loaders: createLoaders(db, now, calendar),
      eventLinkBase: 'https://kalender.example.no/arrangement',
      publicBaseUrl: undefined,
      freshUntil: new FreshUntil(),
      answerTags: new AnswerTags(),
    };
  },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on ${address}/graphql`);

const stop = () => void app.close().then(() => readModel.close()).then(() => database.close()).finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
