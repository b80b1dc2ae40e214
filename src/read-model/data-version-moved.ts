/**
 * A statement saw a newer data version than the snapshot a request is answering from: an import
 * landed meanwhile. The request starts over on the newer snapshot (see CalendarReader), so
 * that every part of an answer comes from one version.
 */
export class DataVersionMoved extends Error {
  constructor(readonly version: string | undefined) {
    super(`the calendar moved to data version ${version ?? '(unknown)'} during the request`);
    this.name = 'DataVersionMoved';
  }
}
