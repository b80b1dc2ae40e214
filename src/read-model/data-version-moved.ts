import type { GraphQLError } from 'graphql';
import { serviceUnavailable } from '../api-error.js';

/**
 * A statement saw a newer data version than the snapshot a request is answering from: an import
 * landed meanwhile. The request starts over on the newer snapshot (see onOneDataVersion), so
 * that every part of an answer comes from one version.
 */
export class DataVersionMoved extends Error {
  constructor(readonly version: string | undefined) {
    super(`the calendar moved to data version ${version ?? '(unknown)'} during the request`);
    this.name = 'DataVersionMoved';
  }
}

/** Attempts of one request before it stops starting over. */
export const DATA_VERSION_ATTEMPTS = 4;

/**
 * Runs `attempt` until it answers from one data version: when it throws DataVersionMoved,
 * `moved` points the next attempt at the newer snapshot and it starts over. A request overtaken
 * by imports DATA_VERSION_ATTEMPTS times in a row is the service's condition (imports landing faster
 * than it reads), not a fault: 503 with Retry-After, like any other moment it cannot answer.
 */
export async function onOneDataVersion<T>(attempt: () => Promise<T>, moved: (error: DataVersionMoved) => void): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof DataVersionMoved)) throw error;
      if (round >= DATA_VERSION_ATTEMPTS) throw calendarKeptMoving();
      moved(error);
    }
  }
}

function calendarKeptMoving(): GraphQLError {
  return serviceUnavailable(`The calendar was updated ${DATA_VERSION_ATTEMPTS} times while this answer was being read. Retry shortly.`);
}
