import { GraphQLError } from 'graphql';
import type { QueryResolvers } from '../../../../generated/resolvers-types.js';
import { readDataChanges, readTimeChanges, shownInDatabase, type ChangeCandidate, type ChangeRows } from '../../../db/repositories/event-changes.js';
import {
  decodeChangeCursor,
  encodeChangeCursor,
  fullSyncCursor,
  nextRoundCursor,
  type ChangeCursor,
  type SyncPoint,
} from '../../../domain/change-cursor.js';
import type { CalendarNode } from '../../../read-model/calendar-reader.js';
import type { GraphQLContext } from '../../context.js';
import { invalidArguments, serviceUnavailable } from '../../errors.js';
import { eventNodes } from '../../event-node.js';
import { nodeOptionsFor } from '../../node-options.js';
import { selectedFieldNames, selectionSetsOf } from '../../selected-fields.js';

export const DEFAULT_CHANGES_PAGE_SIZE = 100;
export const MAX_CHANGES_PAGE_SIZE = 1000;
/** How long a cursor is good for: tombstones are kept a day longer (TOMBSTONE_KEEP_DAYS). */
export const CURSOR_WINDOW_DAYS = 90;
const CURSOR_WINDOW_MS = CURSOR_WINDOW_DAYS * 24 * 60 * 60 * 1000;
/** No bound: the data phase of a round's first page reads up to the database's own version. */
const ANY_VERSION = '9223372036854775807';

/** The client must throw its mirror away and sync again from the start. */
function resyncRequired(detail: string): GraphQLError {
  return new GraphQLError(`${detail}: sync again from the start (call changes without since)`, {
    extensions: { code: 'BAD_USER_INPUT', reason: 'RESYNC_REQUIRED', invalidArgs: ['since'] },
  });
}

/** The cursor names a data version the database has not reached. */
class CursorAhead extends Error {}

/** How long, in all, a page waits for a read replica behind the cursor (like read-at-version.ts). */
const BEHIND_WAIT_MS = 1500;

/**
 * A cursor from beyond the database's version comes from a read replica further on than this one
 * (it catches up within moments: wait for it), or from another calendar, or one restored from an
 * older backup: after the wait, the client must resync.
 */
async function listPageWhenKnown(ctx: GraphQLContext, cursor: ChangeCursor, limit: number): Promise<ListedPage> {
  for (let waitedMs = 0, delayMs = 25; ; delayMs *= 2) {
    try {
      return await listPage(ctx, cursor, limit);
    } catch (error) {
      if (!(error instanceof CursorAhead)) throw error;
      if (waitedMs >= BEHIND_WAIT_MS) throw resyncRequired('this cursor is from another calendar, or one further on than this');
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    waitedMs += delayMs;
  }
}

interface ListedPage {
  candidates: ChangeCandidate[];
  next: ChangeCursor;
  hasMore: boolean;
}

/**
 * The ids of one page: the rest of the round's data phase, then its time phase, up to `limit`.
 * Every statement reads `calendar_state.version` with its rows: a cursor from beyond it is unknown.
 */
async function listPage(ctx: GraphQLContext, cursor: ChangeCursor, limit: number): Promise<ListedPage> {
  const now = ctx.now;
  let to: SyncPoint | null = cursor.to;
  const candidates: ChangeCandidate[] = [];
  const checkKnown = (rows: ChangeRows) => {
    const newest = BigInt(rows.dataVersion);
    if (BigInt(cursor.from.version) > newest || (to !== null && BigInt(to.version) > newest)) throw new CursorAhead();
  };

  if (cursor.phase === 'data') {
    const rows = await readDataChanges(ctx.db, {
      from: cursor.from.version,
      to: to?.version ?? ANY_VERSION,
      after: cursor.after,
      live: cursor.full,
      limit: limit + 1,
    });
    checkKnown(rows);
    // The round's end, fixed by its first page: the version this statement read, and now.
    to ??= { version: rows.dataVersion, at: now.getTime() };
    if (rows.candidates.length > limit) {
      const page = rows.candidates.slice(0, limit);
      const last = page[page.length - 1]!;
      return { candidates: page, hasMore: true, next: { ...cursor, to, after: { version: last.version, id: last.id } } };
    }
    candidates.push(...rows.candidates);
  }
  const round = to!;
  // A full sync lists every event as it is when listed: no time phase.
  if (cursor.full || round.at <= cursor.from.at) return { candidates, hasMore: false, next: nextRoundCursor(round) };

  const room = limit - candidates.length;
  const afterId = cursor.phase === 'time' ? (cursor.after?.id ?? '') : '';
  const rows = await readTimeChanges(ctx.db, { from: new Date(cursor.from.at), to: new Date(round.at), afterId, limit: room + 1 });
  checkKnown(rows);
  if (rows.candidates.length > room) {
    const page = rows.candidates.slice(0, room);
    const lastId = page.length > 0 ? page[page.length - 1]!.id : afterId;
    candidates.push(...page);
    return { candidates, hasMore: true, next: { ...cursor, to: round, phase: 'time', after: { version: '0', id: lastId } } };
  }
  candidates.push(...rows.candidates);
  return { candidates, hasMore: false, next: nextRoundCursor(round) };
}

/**
 * `changes(since, pageSize)`: docs/change-sync.md. The ids of a page come from the change log and
 * the dates (SQL); the events are then read like `eventByID` reads them (the read model, next date
 * promoted), so a changed event looks exactly as `events` shows it.
 */
export const changes: QueryResolvers['changes'] = async (_p, args, ctx, info) => {
  const pageSize = args.pageSize ?? DEFAULT_CHANGES_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize <= 0 || pageSize > MAX_CHANGES_PAGE_SIZE) {
    throw invalidArguments(['pageSize'], `pageSize must be from 1 to ${MAX_CHANGES_PAGE_SIZE}`);
  }
  let cursor: ChangeCursor;
  if (args.since == null) cursor = fullSyncCursor(ctx.now);
  else {
    const decoded = decodeChangeCursor(args.since);
    if (!decoded) throw resyncRequired('this cursor is unknown');
    if (decoded.from.at < ctx.now.getTime() - CURSOR_WINDOW_MS) throw resyncRequired(`this cursor is older than ${CURSOR_WINDOW_DAYS} days`);
    cursor = decoded;
  }

  const listed = await listPageWhenKnown(ctx, cursor, pageSize);
  // An id can be listed by both phases of one page: examined once.
  const seen = new Set<string>();
  const candidates = listed.candidates.filter((c) => !seen.has(c.id) && seen.add(c.id));
  const changedSelections = selectionSetsOf('changed', info.fieldNodes.map((f) => f.selectionSet), info.fragments);
  const selected = selectedFieldNames(changedSelections, info.fragments);
  const ids = candidates.map((c) => c.id);
  const nodes = ids.length > 0 ? await ctx.calendar.upcomingNodes(ids, nodeOptionsFor(selected)) : [];
  const byId = new Map<string, CalendarNode>(nodes.map((n) => [n.event.id, n]));
  const missing = ids.filter((id) => !byId.has(id));
  // Nodes were read with a check that the read model's version is the database's (readAtSnapshotVersion),
  // so it is at least as new as the lists above, and an id it leaves out is not shown. Without a
  // node, nothing checked that: the database says whether an id left out is shown after all (the
  // read model is still building a newer version). Listing it as removed would lose it: retry.
  if (nodes.length === 0 && missing.length > 0 && (await shownInDatabase(ctx.db, missing, ctx.now)).length > 0) {
    throw serviceUnavailable('the calendar is being updated; retry shortly');
  }
  const changed = eventNodes(ids.flatMap((id) => byId.get(id) ?? []));
  // A full sync's client holds nothing: nothing to remove.
  const removedIds = cursor.full ? [] : missing;
  return { changed, removedIds, cursor: encodeChangeCursor(listed.next), hasMore: listed.hasMore };
};
