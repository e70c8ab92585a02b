import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { benchDatabaseName, databaseUrl, dropDatabase, migrate, recreateDatabase, withAdmin } from '../../../bench/data/bench-database.ts';

describe('benchDatabaseName and databaseUrl', () => {
  it('names one database per scale, and points the admin URL at it', () => {
    expect(benchDatabaseName({ products: 1_000_000, brands: 200, bigBrand: 200_000 })).to.equal('bcat_bench_p1000000_b200_g200000');
    expect(databaseUrl('postgres://u:p@127.0.0.1:5432/postgres?sslmode=disable', 'x')).to.equal('postgres://u:p@127.0.0.1:5432/x?sslmode=disable');
  });
});

// Creating databases needs a Postgres server.
const adminUrl = process.env.DATABASE_URL;
if (adminUrl) {
  describe('recreateDatabase, migrate and dropDatabase (DATABASE_URL)', function () {
    this.timeout(60_000);
    const name = `bcat_bench_test_${randomBytes(4).toString('hex')}`;
    const exists = (): Promise<boolean> => withAdmin(adminUrl, async (admin) => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);
    after(() => dropDatabase({ adminUrl, name }));

    it('creates the database empty, even over one that exists, migrates it, and drops it', async () => {
      await recreateDatabase({ adminUrl, name });
      await migrate(databaseUrl(adminUrl, name));
      await recreateDatabase({ adminUrl, name });
      const client = new pg.Client({ connectionString: databaseUrl(adminUrl, name) });
      await client.connect();
      try {
        expect((await client.query(`select to_regclass('products') is null as "empty"`)).rows[0]).to.deep.equal({ empty: true });
        await client.end();
        await migrate(databaseUrl(adminUrl, name));
        const again = new pg.Client({ connectionString: databaseUrl(adminUrl, name) });
        await again.connect();
        expect((await again.query(`select to_regclass('products') is not null as "migrated"`)).rows[0]).to.deep.equal({ migrated: true });
        await again.end();
      } finally {
        await client.end().catch(() => undefined);
      }
      await dropDatabase({ adminUrl, name });
      expect(await exists()).to.equal(false);
      await dropDatabase({ adminUrl, name }); // dropping one that is gone is fine
    });
  });
}
