import { GraphQLError } from 'graphql';
import type { QueryResolvers } from '../../../../generated/resolvers-types.js';
import { newerDataVersion as newer, readDataVersion } from '../../../db/repositories/calendar-state.js';
import { readTimeChanges } from '../../../db/repositories/event-changes.js';
import {
  decodeChangeCursor,
  encodeChangeCursor,
  fullSyncCursor,
  nextRoundCursor,
  type ChangeCursor,
  type SyncPoint,
} from '../../../domain/change-cursor.js';
import type { CalendarNode } from '../../../read-model/calendar-reader.js';
import type { LayeredSnapshot } from '../../../read-model/layers/layered-snapshot.js';
import { DataVersionMoved } from '../../../read-model/data-version-moved.js';
import { changesInLog } from '../../../read-model/snapshot/snapshot-change-log.js';
import type { GraphQLContext } from '../../context.js';
import { invalidArguments } from '../../../api-error.js';
import { eventNodes } from '../../event-node.js';
import { nodeOptionsFor } from '../../node-options.js';
import { selectedFieldNames, selectionSetsOf } from '../../selected-fields.js';

export const DEFAULT_CHANGES_PAGE_SIZE = 100;
export const MAX_CHANGES_PAGE_SIZE = 1000;
/** How long a cursor is good for: tombstones are kept a day longer (TOMBSTONE_KEEP_DAYS). */
export const CURSOR_WINDOW_DAYS = 90;
const CURSOR_WINDOW_MS = CURSOR_WINDOW_DAYS * 24 * 60 * 60 * 1000;

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
async function listPageWhenKnown(ctx: GraphQLContext, snapshot: LayeredSnapshot, cursor: ChangeCursor, limit: number): Promise<ListedPage> {
  for (let waitedMs = 0, delayMs = 25; ; delayMs *= 2) {
    try {
      return await listPage(ctx, snapshot, cursor, limit);
    } catch (error) {
      if (!(error instanceof CursorAhead)) throw error;
      if (waitedMs >= BEHIND_WAIT_MS) throw resyncRequired('this cursor is from another calendar, or one further on than this');
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    waitedMs += delayMs;
  }
}

interface ListedPage {
  /** The ids to examine, in listing order (an id may come twice: once per phase). */
  ids: string[];
  next: ChangeCursor;
  hasMore: boolean;
}

/**
 * A cursor from a version this snapshot has not reached: the database has it (an import this
 * process has not loaded yet, the previous page came from a process further on), so the request
 * starts over on a newer snapshot; or it has not (a replica behind, another calendar): CursorAhead.
 */
async function checkSnapshotKnows(ctx: GraphQLContext, snapshot: LayeredSnapshot, cursor: ChangeCursor): Promise<void> {
  const wanted = cursor.to !== null && newer(cursor.to.version, cursor.from.version) ? cursor.to.version : cursor.from.version;
  if (!newer(wanted, snapshot.version)) return;
  const database = await readDataVersion(ctx.db);
  if (database !== undefined && !newer(wanted, database)) throw new DataVersionMoved(database);
  throw new CursorAhead();
}

/**
 * The ids of one page: the rest of the round's data phase (from the snapshot's change log), then its
 * time phase (SQL: dates that ended, publishing dates that passed), up to `limit`.
 */
async function listPage(ctx: GraphQLContext, snapshot: LayeredSnapshot, cursor: ChangeCursor, limit: number): Promise<ListedPage> {
  await checkSnapshotKnows(ctx, snapshot, cursor);
  const now = ctx.now;
  // The round's end, fixed by its first page: the version of the snapshot it was listed from, and now.
  const round: SyncPoint = cursor.to ?? { version: snapshot.version, at: now.getTime() };
  const ids: string[] = [];

  if (cursor.phase === 'data') {
    const after = cursor.after;
    const listed = changesInLog(snapshot.changeLog, {
      from: Number(cursor.from.version),
      to: Number(round.version),
      after: after ? { version: Number(after.version), id: after.id } : null,
      live: cursor.full,
      limit: limit + 1,
    });
    if (listed.length > limit) {
      const last = listed[limit - 1]!;
      return {
        ids: listed.slice(0, limit).map((c) => c.id),
        hasMore: true,
        next: { ...cursor, to: round, after: { version: String(last.version), id: last.id } },
      };
    }
    for (const change of listed) ids.push(change.id);
  }
  // A full sync lists every event as it is when listed: no time phase.
  if (cursor.full || round.at <= cursor.from.at) return { ids, hasMore: false, next: nextRoundCursor(round) };

  const room = limit - ids.length;
  const afterId = cursor.phase === 'time' ? (cursor.after?.id ?? '') : '';
  const rows = await readTimeChanges(ctx.db, { from: new Date(cursor.from.at), to: new Date(round.at), afterId, limit: room + 1 });
  // The dates of an older version than the cursor's (a replica behind) could miss some.
  if (newer(cursor.from.version, rows.dataVersion) || newer(round.version, rows.dataVersion)) throw new CursorAhead();
  if (rows.ids.length > room) {
    const page = rows.ids.slice(0, room);
    ids.push(...page);
    return { ids, hasMore: true, next: { ...cursor, to: round, phase: 'time', after: { version: '0', id: page.at(-1) ?? afterId } } };
  }
  ids.push(...rows.ids);
  return { ids, hasMore: false, next: nextRoundCursor(round) };
}

/**
 * `changes(since, pageSize)`: docs/change-sync.md. The ids of a page come from the read model's
 * copy of the change log (data phase) and the dates (time phase, SQL); the events are then read like
 * `eventByID` reads them (next date promoted), from the same snapshot as the log, so a changed event
 * looks exactly as `events` shows it.
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

  const changedSelections = selectionSetsOf('changed', info.fieldNodes.map((f) => f.selectionSet), info.fragments);
  const options = nodeOptionsFor(selectedFieldNames(changedSelections, info.fragments));
  // The ids and their events from one snapshot: an id the snapshot does not show is not shown.
  const { listed, ids, nodes } = await ctx.calendar.atOneSnapshot(async (snapshot, upcomingNodes) => {
    const listed = await listPageWhenKnown(ctx, snapshot, cursor, pageSize);
    // An id can be listed by both phases of one page: examined once.
    const ids = [...new Set(listed.ids)];
    return { listed, ids, nodes: ids.length > 0 ? await upcomingNodes(ids, options) : [] };
  });
  const byId = new Map<string, CalendarNode>(nodes.map((n) => [n.event.id, n]));
  const changed = eventNodes(ids.flatMap((id) => byId.get(id) ?? []));
  // A full sync's client holds nothing: nothing to remove.
  const removedIds = cursor.full ? [] : ids.filter((id) => !byId.has(id));
  return { changed, removedIds, cursor: encodeChangeCursor(listed.next), hasMore: listed.hasMore };
};
