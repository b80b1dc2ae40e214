import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Loaders } from './loaders.js';
import type { ResultSummaryCache } from './result-summaries.js';

/** What every resolver receives. Built once per request by the context plugin. */
export interface GraphQLContext {
  db: Kysely<Database>;
  /** "Now" for this request: one instant, so every "upcoming" rule in a response agrees. */
  now: Date;
  /** Per-request batching loaders (no N+1). */
  loaders: Loaders;
  /** Base URL of the public event pages; `eventLink` = this + `/` + slug. */
  eventLinkBase: string;
  /** Whole-result summaries of `events` filters, shared by every request of this service. */
  resultSummaries: ResultSummaryCache;
}
