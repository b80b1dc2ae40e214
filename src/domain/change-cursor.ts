/*
 * The cursor of `changes` (docs/change-sync.md), opaque to clients: base64url of a small JSON
 * array. A sync proceeds in rounds. A round covers what changed between its start and its end:
 * data versions (from, to] (the data version is the change sequence: every import raises it by one)
 * and instants (from, to] (a date that ends moves the next one up, or ends the event; a publishing
 * date that passes shows it). A round's end is fixed by its first page; its ids are listed in two
 * phases, each in keyset order: the data phase by (version, id), then the time phase by id. Its
 * last page hands out the cursor of the next round, which starts where this one ended.
 */

/** A point of the sync: a data version and an instant (ms since the epoch). */
export interface SyncPoint {
  version: string;
  at: number;
}

export interface ChangeCursor {
  /** The round starts here: the client holds the calendar as of this point. */
  from: SyncPoint;
  /** The round ends here; null: the round has not started yet (its first page sets it). */
  to: SyncPoint | null;
  /** A full sync's round: the client holds nothing, so only what exists is listed. */
  full: boolean;
  phase: 'data' | 'time';
  /** Keyset position in the phase: the last (version, id) listed; null: from its beginning. */
  after: { version: string; id: string } | null;
}

const FORMAT = 1;
const VERSION = /^(0|[1-9][0-9]{0,18})$/;

/** The cursor of a full sync's first page (no `since`): from version 0, nothing held. */
export function fullSyncCursor(now: Date): ChangeCursor {
  return { from: { version: '0', at: now.getTime() }, to: null, full: true, phase: 'data', after: null };
}

/** The cursor a round's last page hands out: the next round starts at this one's end. */
export function nextRoundCursor(end: SyncPoint): ChangeCursor {
  return { from: end, to: null, full: false, phase: 'data', after: null };
}

type Encoded = [format: number, fromVersion: string, fromAt: number, toVersion: string | null, toAt: number | null, full: 0 | 1, phase: 0 | 1, afterVersion: string | null, afterId: string | null];

export function encodeChangeCursor(cursor: ChangeCursor): string {
  const encoded: Encoded = [
    FORMAT,
    cursor.from.version,
    cursor.from.at,
    cursor.to?.version ?? null,
    cursor.to?.at ?? null,
    cursor.full ? 1 : 0,
    cursor.phase === 'data' ? 0 : 1,
    cursor.after?.version ?? null,
    cursor.after?.id ?? null,
  ];
  return Buffer.from(JSON.stringify(encoded), 'utf8').toString('base64url');
}

const isVersion = (v: unknown): v is string => typeof v === 'string' && VERSION.test(v);
const isInstant = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The cursor a client sent, or null when it is not one this service wrote (unknown cursor). */
export function decodeChangeCursor(text: string): ChangeCursor | null {
  if (text.length === 0 || text.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 9 || value[0] !== FORMAT) return null;
  const [, fromVersion, fromAt, toVersion, toAt, full, phase, afterVersion, afterId] = value as unknown[];
  if (!isVersion(fromVersion) || !isInstant(fromAt)) return null;
  if (!(full === 0 || full === 1) || !(phase === 0 || phase === 1)) return null;
  let to: SyncPoint | null = null;
  if (toVersion !== null || toAt !== null) {
    if (!isVersion(toVersion) || !isInstant(toAt) || BigInt(toVersion) < BigInt(fromVersion) || toAt < fromAt) return null;
    to = { version: toVersion, at: toAt };
  }
  let after: ChangeCursor['after'] = null;
  if (afterVersion !== null || afterId !== null) {
    if (!isVersion(afterVersion) || typeof afterId !== 'string' || to === null) return null;
    after = { version: afterVersion, id: afterId };
  }
  if (to === null && (phase !== 0 || full === 1)) return null;
  return { from: { version: fromVersion, at: fromAt }, to, full: full === 1, phase: phase === 0 ? 'data' : 'time', after };
}
