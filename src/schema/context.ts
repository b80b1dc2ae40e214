import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { AnswerTags } from '../domain/answer-tags.js';
import type { FreshUntil } from '../domain/fresh-until.js';
import type { CalendarReader } from '../read-model/calendar-reader.js';
import type { Loaders } from './loaders.js';

/** What every resolver receives. Built once per request by the context plugin. */
export interface GraphQLContext {
  db: Kysely<Database>;
  /** "Now" for this request: one instant, so every "upcoming" rule in a response agrees. */
  now: Date;
  /** The calendar as of one data version (the read model's snapshot, pinned for the request). */
  calendar: CalendarReader;
  /** Per-request batching loaders (no N+1). */
  loaders: Loaders;
  /** Base URL of the public event pages; `eventLink` = this + `/` + slug. */
  eventLinkBase: string;
  /** This service as readers' browsers reach it (PUBLIC_BASE_URL or the listening address), for URLs to itself; undefined: relative URLs. */
  publicBaseUrl: string | undefined;
  /**
   * The latest instant this response stays right at (a `Filter.when` window's end), lowered by
   * resolvers: a cache keeps the answer no longer than `freshUntil.instant()` (null: no bound).
   */
  freshUntil: FreshUntil;
  /** Tags of this response for CDN purges beside its root fields' (domain/answer-tags.ts): added by resolvers, read after execution. */
  answerTags: AnswerTags;
}
