import type { Plugin } from '@envelop/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { createLoaders } from '../schema/loaders.js';

export interface CalendarContextOptions {
  db: Kysely<Database>;
  /** Source of "now"; tests fix it. @default () => new Date() */
  clock?: () => Date;
  /** Base of `eventLink`. */
  eventLinkBase: string;
}

/** Adds the resolvers' context: database, one "now" per request, and fresh batching loaders. */
export function useCalendarContext(options: CalendarContextOptions): Plugin {
  const clock = options.clock ?? (() => new Date());
  const eventLinkBase = options.eventLinkBase.replace(/\/+$/, '');
  return {
    onContextBuilding({ extendContext }) {
      const now = clock();
      extendContext({ db: options.db, now, loaders: createLoaders(options.db, now), eventLinkBase });
    },
  };
}
