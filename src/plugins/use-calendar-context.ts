import type { Plugin } from '@envelop/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { createLoaders } from '../schema/loaders.js';
import { ResultSummaryCache } from '../schema/result-summaries.js';
import { CatalogueCache } from '../schema/catalogue-cache.js';
import type { Logger } from '../logger.js';

export interface CalendarContextOptions {
  db: Kysely<Database>;
  /** Source of "now"; tests fix it. @default () => new Date() */
  clock?: () => Date;
  /** Base of `eventLink`. */
  eventLinkBase: string;
  logger: Logger;
}

/** Adds the resolvers' context: database, one "now" per request, fresh batching loaders, and the shared caches. */
export function useCalendarContext(options: CalendarContextOptions): Plugin {
  const clock = options.clock ?? (() => new Date());
  const eventLinkBase = options.eventLinkBase.replace(/\/+$/, '');
  const resultSummaries = new ResultSummaryCache({ logger: options.logger });
  const catalogues = new CatalogueCache(options.db);
  return {
    onContextBuilding({ extendContext }) {
      const now = clock();
      extendContext({ db: options.db, now, loaders: createLoaders(options.db, now, catalogues), eventLinkBase, resultSummaries });
    },
  };
}
