import type { Plugin } from '@envelop/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { AnswerTags } from '../domain/answer-tags.js';
import { FreshUntil } from '../domain/fresh-until.js';
import { createLoaders } from '../schema/loaders.js';
import { CalendarReader } from '../read-model/calendar-reader.js';
import type { ReadModel } from '../read-model/read-model.js';

export interface CalendarContextOptions {
  db: Kysely<Database>;
  /** The calendar's read model, shared by every request of this service. */
  readModel: ReadModel;
  /** Source of "now"; tests fix it. @default () => new Date() */
  clock?: () => Date;
  /** Base of `eventLink`. */
  eventLinkBase: string;
  /** The service's public base URL, asked per request (see PluginOptions.publicBaseUrl). @default none */
  publicBaseUrl?: (() => string | undefined) | undefined;
}

/** Adds the resolvers' context: database, one "now" per request, the calendar as of one data version, fresh loaders, the service's own URL. */
export function useCalendarContext(options: CalendarContextOptions): Plugin {
  const clock = options.clock ?? (() => new Date());
  const eventLinkBase = options.eventLinkBase.replace(/\/+$/, '');
  return {
    onContextBuilding({ extendContext }) {
      const now = clock();
      const calendar = new CalendarReader(options.readModel, options.db, now);
      const publicBaseUrl = options.publicBaseUrl?.() || undefined;
      extendContext({ db: options.db, now, calendar, loaders: createLoaders(options.db, now, calendar), eventLinkBase, publicBaseUrl, freshUntil: new FreshUntil(), answerTags: new AnswerTags() });
    },
  };
}
