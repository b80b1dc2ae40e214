import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { readAtSnapshotVersion } from './read-at-version.js';
import { BoundedMemo } from '../../domain/bounded-memo.js';

/** The cache key of "every column" (a column list is never empty: it holds at least the id). */
const EVERY_COLUMN = '*';

/**
 * How records are read at the snapshot's data version: one family of statements per table, each
 * statement reading `calendar_state.version` in the same statement as the records (one statement
 * sees one committed state), joined so that the version comes back even when no record matches,
 * and taking one array parameter, the ids. A version other than the snapshot's means an import
 * landed since it was built, or (older) a read replica that is behind: readAtSnapshotVersion says
 * what happens then.
 *
 * A statement is built with Kysely (type-checked against the schema) once per database and column
 * set (a handful of sets in practice: one per distinct selection of fields), then only given new
 * parameters: its text never changes and nothing is compiled per request. Bounded anyway (a
 * BoundedMemo): the column sets are the callers' choice.
 */
export class RecordStatements<Column extends string, Row extends { version: string | number | null }> {
  private readonly byDatabase = new WeakMap<Kysely<Database>, BoundedMemo<string, CompiledQuery<Row>>>();

  constructor(
    /** The statement reading `columns` (null: every column) of the records whose ids are its one parameter. */
    private readonly build: (db: Kysely<Database>, columns: readonly Column[] | null) => Compilable<Row>,
    private readonly max = 64,
  ) {}

  /**
   * The rows of `ids` with `columns` (in a stable order: the caller sorts them; null: every column),
   * as of the snapshot's version.
   */
  readAt(db: Kysely<Database>, snapshot: CalendarSnapshot, ids: readonly unknown[], columns: readonly Column[] | null): Promise<Row[]> {
    return this.read(db, snapshot, ids, columns, columns === null ? EVERY_COLUMN : columns.join(','));
  }

  /** `readAt` of one column set fixed in advance, its key made once rather than on every read. */
  withColumns(columns: readonly Column[]): (db: Kysely<Database>, snapshot: CalendarSnapshot, ids: readonly unknown[]) => Promise<Row[]> {
    const key = columns.join(',');
    return (db, snapshot, ids) => this.read(db, snapshot, ids, columns, key);
  }

  private read(db: Kysely<Database>, snapshot: CalendarSnapshot, ids: readonly unknown[], columns: readonly Column[] | null, key: string): Promise<Row[]> {
    const compiled = this.statement(db, columns, key);
    return readAtSnapshotVersion(snapshot, async () => (await db.executeQuery(CompiledQuery.raw(compiled.sql, [ids]) as CompiledQuery<Row>)).rows);
  }

  private statement(db: Kysely<Database>, columns: readonly Column[] | null, key: string): CompiledQuery<Row> {
    let statements = this.byDatabase.get(db);
    if (!statements) this.byDatabase.set(db, (statements = new BoundedMemo<string, CompiledQuery<Row>>(this.max)));
    return statements.remember(key, () => this.build(db, columns).compile());
  }
}
