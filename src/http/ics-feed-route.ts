import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { CATEGORIES_TAG, EVENTS_TAG, ORGANIZERS_TAG, VENUES_TAG } from '../domain/answer-tags.js';
import { buildEventQuery, type EventQuery } from '../domain/event-query.js';
import { FEED_COST } from '../domain/operation-cost.js';
import { feedName } from '../feeds/feed-name.js';
import { feedOccurrences } from '../feeds/feed-occurrences.js';
import { readFeedParameters, type FeedLanguage, type FeedRequest } from '../feeds/feed-parameters.js';
import { renderIcsFeed } from '../feeds/render-ics-feed.js';
import type { ReadModel } from '../read-model/read-model.js';
import type { ResponseCache } from './answer-cache/response-cache.js';
import { storedAnswer, type StoredAnswer } from './answer-cache/stored-answer.js';
import { refusalError, type FairExecutions } from './fair-executions.js';
import { SERVICE_CALLER, type RequestCaller } from '../identity/request-caller.js';
import type { UsageRecorder } from '../identity/usage-recorder.js';
import type { BudgetTicket, CallerBudgets } from '../identity/caller-budgets.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import { NO_STORE } from './caching-headers.js';
import { writeStoredAnswer } from './stored-answer-writer.js';
import type { SharedCaches } from './shared-caches.js';
import type { DatabaseHealth } from '../db/database-health.js';
import { databaseUnavailable } from '../database-unavailable.js';
import { httpHeadersFor, httpStatusFor } from './status.js';

const MEDIA_TYPE = 'text/calendar';

/** A feed lists events (any event change may alter it) with venue, organizer and category names. */
const FEED_CDN_TAGS = [EVENTS_TAG, VENUES_TAG, ORGANIZERS_TAG, CATEGORIES_TAG];

/** A feed saved from a browser keeps a name calendar programs open. */
const CONTENT_HEADERS = { 'Content-Disposition': 'inline; filename="events.ics"' };

/** The feed is sent in the coding the client accepts (content-coding.ts): caches keep the codings apart. */
const FEED_VARY = { Vary: 'Accept-Encoding' };

/** Like `events` (response-policy.ts): what moves with "now" is which dates have ended. */
export const ICS_FEED_TTL_MS = 30_000;

export interface IcsFeedOptions {
  readModel: ReadModel;
  db: Kysely<Database>;
  /** The service clock ("now" of the feed's window). */
  clock: () => Date;
  /** Base of `eventLink` (PUBLIC_SITE_URL). */
  eventLinkBase: string;
  /** Told when the database cannot answer (one log line per outage, /ready). @default none */
  databaseHealth?: DatabaseHealth | undefined;
  /** What public answers tell CDNs (tags, outdated answers). @default no tags, never outdated */
  sharedCaches?: SharedCaches | undefined;
  /** The response cache (NO_RESPONSE_CACHE when off: every request renders; answers still carry public caching headers). */
  responseCache: ResponseCache;
  /** Renders run in their caller's turn, like GraphQL executions. @default no queue */
  executions?: FairExecutions | undefined;
  /** Whose share a request draws on (its RequestCaller). */
  shareOf?: ((req: IncomingMessage) => RequestCaller | Promise<RequestCaller>) | undefined;
  /** Budgets per caller: a render is charged FEED_COST, and every answer carries the RateLimit headers. @default none */
  budgets?: CallerBudgets | undefined;
  /** Counts what each caller's renders cost (`calendar usage --callers`). @default none */
  usage?: UsageRecorder | undefined;
}

/**
 * GET and HEAD /events.ics: an iCalendar feed of the `events` filter given as URL parameters
 * (docs/feeds.md). Decide (parameters, as the API validates them) first; then the cache, keyed by
 * the data version and the normalised parameters; render on a miss.
 */
export async function handleIcsFeed(req: IncomingMessage, res: ServerResponse, url: URL, options: IcsFeedOptions): Promise<void> {
  // With budgets, the caller is needed for every answer (its RateLimit headers), hits included.
  const share = options.budgets && options.shareOf ? await options.shareOf(req) : undefined;
  const budget = share && options.budgets?.ticketOf(share);
  try {
    await answerIcsFeed(req, res, url, options, share, budget);
  } catch (error) {
    // What the GraphQL route answers 503 (the database cannot answer, the calendar kept changing
    // under the request), in plain text with the same status and Retry-After; anything else is a fault.
    const unavailable = databaseUnavailable(error, options.databaseHealth) ?? (isServiceUnavailable(error) ? error : undefined);
    if (!unavailable || res.headersSent) throw error;
    const result = { errors: [unavailable] };
    const headers = budget ? { ...httpHeadersFor(result), ...rateLimitHeaders(budget) } : httpHeadersFor(result);
    sendPlainText(res, httpStatusFor(result, 'application/json'), unavailable.message, headers);
  }
}

async function answerIcsFeed(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  options: IcsFeedOptions,
  caller: RequestCaller | undefined,
  budget: BudgetTicket | undefined,
): Promise<void> {
  const read = readFeedParameters(url.searchParams);
  if (!read.ok) return sendBadRequest(res, read.problem.message);
  const { filter, lan, normalized } = read.request;
  const now = options.clock();
  const built = buildEventQuery(filter, now);
  if (!built.ok) {
    // Names as the URL spells them: `near.radiusKm` is the `near` parameter's third number.
    const names = [...new Set(built.invalidArgs.map((name) => name.split('.')[0]!))];
    const detail = built.detail ? ` ${built.detail}.` : '';
    return sendBadRequest(res, `Invalid value of the parameter${names.length > 1 ? 's' : ''} ${names.join(', ')}.${detail} See docs/feeds.md.`);
  }
  const query = built.query;
  // "A cached answer of a preset never outlives its window."
  const ttlMs = query.validUntil ? Math.max(0, Math.min(ICS_FEED_TTL_MS, query.validUntil.getTime() - now.getTime())) : ICS_FEED_TTL_MS;

  const answered = await options.responseCache.lookupOrExecute({
    cacheKey: () => `ics\u0000${normalized}`,
    // A preset's stale answer may be of the window before: it is not served while it is refreshed.
    servesStale: query.when === null,
    execute: async (background) => {
      if (options.executions && options.shareOf) {
        const share = background ? SERVICE_CALLER : (caller ?? (await options.shareOf(req)));
        // The service's own refreshes are never charged; a spent budget is refused before its turn (as GraphQL's).
        const ticket = background ? undefined : budget;
        const refused = (error: GraphQLError) => {
          options.usage?.recordCost(share, 'refused');
          return error;
        };
        const spent = ticket?.refuseIfSpent();
        if (ticket && spent) throw refused(ticket.refusal(spent));
        const render = async () => {
          const taken = await ticket?.charge(FEED_COST);
          if (ticket && taken && !taken.allowed) throw refused(ticket.refusal(taken));
          const rendered = await renderFeed(options, query, filter, lan, ttlMs);
          options.usage?.recordCost(share, { points: FEED_COST });
          return rendered;
        };
        const executed = await options.executions.run(share, render, background ? undefined : () => req.socket.destroyed);
        if (!executed.ran) throw executed.refusal === 'caller-busy' ? refused(refusalError(executed.refusal, options.executions)) : refusalError(executed.refusal, options.executions);
        return { value: executed.value, shareable: { answer: executed.value, keep: true } };
      }
      const answer = await renderFeed(options, query, filter, lan, ttlMs);
      return { value: answer, shareable: { answer, keep: true } };
    },
  });
  const answer = answered.from === 'cache' ? answered.answer : answered.value;
  await writeStoredAnswer(req, res, answer, {
    method: 'GET',
    mediaType: MEDIA_TYPE,
    contentHeaders: CONTENT_HEADERS,
    headers: budget ? { ...rateLimitHeaders(budget), ...FEED_VARY } : FEED_VARY,
    lookup: answered.lookup,
    sharedCaches: options.sharedCaches,
    version: answered.version,
  });
}

/** The feed of one request: its occurrences from the read model, rendered as iCalendar. */
async function renderFeed(options: IcsFeedOptions, query: EventQuery, filter: FeedRequest['filter'], lan: FeedLanguage, ttlMs: number): Promise<StoredAnswer> {
  const feed = await feedOccurrences(options.readModel, options.db, query);
  const body = renderIcsFeed({
    occurrences: feed.occurrences,
    catalogue: feed.catalogue,
    lan,
    name: feedName(filter, feed.catalogue, lan),
    eventLinkBase: options.eventLinkBase,
  });
  return storedAnswer(body, ttlMs, 'events.ics', FEED_CDN_TAGS);
}

/** Errors answered in plain text with their status and Retry-After: the service cannot answer now, or this caller has taken its share. */
const isServiceUnavailable = (error: unknown): error is GraphQLError =>
  error instanceof GraphQLError && (error.extensions['code'] === 'SERVICE_UNAVAILABLE' || error.extensions['code'] === 'RATE_LIMITED');

/** 400 in plain text: calendar clients show a body, if anything, as text; the message names the parameter. */
function sendBadRequest(res: ServerResponse, message: string): void {
  sendPlainText(res, 400, message);
}

function sendPlainText(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(`${message}\n`);
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': NO_STORE, ...headers });
  res.end(body);
}
