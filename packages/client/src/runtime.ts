// The request runtime: the typed client and its error. Browser-safe: no node modules, no GraphQL parser.
export { createCalendarClient } from './create-calendar-client.js';
export type {
  AbortSignalLike,
  CalendarClient,
  CalendarClientOptions,
  CalendarDocument,
  FetchInit,
  FetchLike,
  RequestArgs,
  RequestOptions,
  ResultOf,
  VariablesOf,
} from './create-calendar-client.js';
export { CalendarRequestError, type GraphQLErrorLike } from './calendar-request-error.js';
export { sha256Hex } from './sha256-hex.js';
export { syncChanges, type ChangedEvent, type ChangesPage, type SyncChangesOptions, type SyncChangesResult } from './sync-changes.js';
export { suggest, suggestionFilter, type Suggestion, type SuggestOptions } from './suggest.js';
export { eventsFeedUrl, eventsFeedWebcalUrl, type EventsFeedUrlOptions } from './events-feed-url.js';
