import { readdir } from 'node:fs/promises';
import { expect } from 'chai';
import { MIGRATIONS_DIR } from '../../../knexfile.ts';
import { openEmbedded, type Database } from '../../../src/db/connection/open-database.ts';
import { migrateToLatest, pendingMigrations } from '../../../src/db/schema/migrate-to-latest.ts';
import { testDatabase } from '../../support/test-database.ts';

describe('migrations', () => {
  let fresh: Database;
  let files: string[];

  before(async () => {
    // A database of this test's own: the run's is migrated already.
    fresh = await openEmbedded({ dir: null });
    files = (await readdir(MIGRATIONS_DIR)).filter((file) => /^\d{14}_[a-z0-9_]+\.ts$/.test(file)).sort();
  });
  after(() => fresh.close());

  it('counts every migration of the repository as pending on an empty database', async () => {
    expect(files).to.not.be.empty;
    expect(await pendingMigrations(fresh.db)).to.deep.equal(files);
  });

  it('runs them all, in order, and returns their names; then none is pending and a second run does nothing', async function () {
    this.timeout(60_000);
    expect(await migrateToLatest(fresh.db)).to.deep.equal(files);
    expect(await pendingMigrations(fresh.db)).to.deep.equal([]);
    expect(await migrateToLatest(fresh.db)).to.deep.equal([]);
    const tables = (await fresh.db.raw(`select count(*)::int as n from pg_tables where schemaname = current_schema() and tablename = 'carton_sizes'`)) as { rows: { n: number }[] };
    expect(tables.rows[0]!.n).to.equal(1);
  });

  it('leaves nothing pending on the run\'s database', async () => {
    expect(await pendingMigrations((await testDatabase()).db)).to.deep.equal([]);
  });
});
