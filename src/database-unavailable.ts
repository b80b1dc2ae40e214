import type { GraphQLError } from 'graphql';
import { serviceUnavailable } from './api-error.js';
import { isDatabaseUnavailable } from './db/connection-errors.js';
import type { DatabaseHealth } from './db/database-health.js';

export const DATABASE_UNAVAILABLE_MESSAGE = 'The calendar database is unavailable or too slow right now. Retry shortly.';

/**
 * A failure of a database that cannot answer now (connection-errors.ts), as the 503 the service
 * answers it with, reported to the database health (which logs once per outage); undefined for any
 * other failure. Shared by GraphQL (useLoggedMaskedErrors) and the routes outside it (/events.ics).
 */
export function databaseUnavailable(error: unknown, databaseHealth: DatabaseHealth | undefined): GraphQLError | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  databaseHealth?.reportFailure(error);
  return serviceUnavailable(DATABASE_UNAVAILABLE_MESSAGE);
}
