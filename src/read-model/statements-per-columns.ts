import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/**
 * Compiled statements kept per database and per column set: one per distinct selection of fields
 * (a handful in practice), built with Kysely once and then only given new parameters. Bounded anyway:
 * emptied at once when full.
 */
export class StatementsPerColumns<Column extends string, Row> {
  private readonly byDatabase = new WeakMap<Kysely<Database>, Map<string, CompiledQuery<Row>>>();

  constructor(
    private readonly build: (db: Kysely<Database>, columns: readonly Column[]) => CompiledQuery<Row>,
    private readonly max = 64,
  ) {}

  /** The statement reading `columns` (in a stable order: the caller sorts them). */
  of(db: Kysely<Database>, columns: readonly Column[]): CompiledQuery<Row> {
    let statements = this.byDatabase.get(db);
    if (!statements) this.byDatabase.set(db, (statements = new Map()));
    const key = columns.join(',');
    let statement = statements.get(key);
    if (!statement) {
      statement = this.build(db, columns);
      if (statements.size >= this.max) statements.clear();
      statements.set(key, statement);
    }
    return statement;
  }
}
