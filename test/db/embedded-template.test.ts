import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/open-database.js';

// openDatabase's `template`: an embedded database started from another one's dump (what the test
// suite's databases start from), holding what the dumped one held, without being tied to it.
describe('embedded database: started from a dump (template)', { timeout: 120_000 }, () => {
  const open: DatabaseHandle[] = [];
  let dir: string | undefined;
  afterAll(async () => {
    await Promise.all(open.map((handle) => handle.close()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('holds the dumped database: its migrations and rows; writes to one are not seen by the other', async () => {
    // The source starts from the run's migrated template itself (no initdb and migrations again, seconds
    // of CPU); what it holds past that is a row of this test.
    const source = await openDatabase({ dataDir: 'memory://', template: inject('embeddedTemplate') });
    open.push(source);
    expect((await migrateToLatest(source.db)).results).toEqual([]);
    await sql`insert into categories (id, name_nb, name_en, slug_nb, slug_en) values ('QUIZ', 'Quiz', 'Quiz', 'quiz', 'quiz')`.execute(source.db);
    dir = await mkdtemp(join(tmpdir(), 'calendar-dump-'));
    const tarball = join(dir, 'dump.tar');
    await writeFile(tarball, await source.dump!());

    const copy = await openDatabase({ dataDir: 'memory://', template: tarball });
    open.push(copy);
    // Nothing left to migrate, and the row is there.
    expect((await migrateToLatest(copy.db)).results).toEqual([]);
    expect((await sql<{ id: string }>`select id from categories`.execute(copy.db)).rows).toEqual([{ id: 'QUIZ' }]);

    await sql`delete from categories`.execute(copy.db);
    expect((await sql<{ id: string }>`select id from categories`.execute(source.db)).rows).toEqual([{ id: 'QUIZ' }]);
  });
});
