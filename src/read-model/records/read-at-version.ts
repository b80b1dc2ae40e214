import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { DataVersionMoved } from '../data-version-moved.js';

/** How long a statement waits, in all, for a replica behind the snapshot to replay up to it. */
const BEHIND_WAIT_MS = 1500;

/**
 * A statement ran on a read replica that is behind the snapshot (it came from another replica, before
 * a failover between replicas) and did not catch up in time. The code is the SQLSTATE a standby gives
 * while it cannot serve yet (cannot_connect_now): the service's condition, not the caller's, so it is
 * answered 503 with Retry-After like any database that cannot answer now.
 */
export class ReadReplicaBehind extends Error {
  readonly code = '57P03';
  constructor(
    readonly version: string,
    readonly snapshotVersion: string,
  ) {
    super(`the read replica is at data version ${version}, behind the snapshot's ${snapshotVersion}`);
    this.name = 'ReadReplicaBehind';
  }
}

/**
 * Runs `read` (a statement that returns `calendar_state.version` on every row, see record-statements.ts)
 * and returns its rows when they are of the snapshot's version. A newer version means an import
 * landed: DataVersionMoved, and the request starts over on a newer snapshot. An older one can only
 * come from a replica behind the one the snapshot was read from: the statement is read again, with
 * backoff, until that replica has replayed up to the snapshot (never mixing versions in one answer).
 */
export async function readAtSnapshotVersion<R extends { version: string | number | null }>(snapshot: CalendarSnapshot, read: () => Promise<R[]>): Promise<R[]> {
  for (let waitedMs = 0, delayMs = 25; ; delayMs *= 2) {
    const rows = await read();
    const version = rows[0]?.version == null ? undefined : String(rows[0].version);
    if (version === snapshot.version) return rows;
    if (version === undefined || BigInt(version) > BigInt(snapshot.version)) throw new DataVersionMoved(version);
    if (waitedMs >= BEHIND_WAIT_MS) throw new ReadReplicaBehind(version, snapshot.version);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    waitedMs += delayMs;
  }
}
