import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { databaseUrl, dropDatabase, recreateDatabase } from '../../../bench/data/bench-database.ts';
import { isLoaded, loadedSummary, markLoaded } from '../../../bench/data/loaded-marker.ts';

// The marker lives in a database of its own: it needs a Postgres server.
const adminUrl = process.env.DATABASE_URL;
if (adminUrl) {
  describe('the loaded marker (DATABASE_URL)', function () {
    this.timeout(60_000);
    const name = `bcat_bench_test_${randomBytes(4).toString('hex')}`;
    const scale = { products: 3000, brands: 5, bigBrand: 1500 };
    before(() => recreateDatabase({ adminUrl, name }));
    after(() => dropDatabase({ adminUrl, name }));

    it('finds a database loaded at its own scale only, and reads back what the load took', async () => {
      expect(await isLoaded({ adminUrl, name, scale }), 'not before the mark').to.equal(false);
      const client = new pg.Client({ connectionString: databaseUrl(adminUrl, name) });
      await client.connect();
      try {
        await markLoaded({ client, scale, summary: { rows: { products: 3000 }, seconds: 1.5, cpuSeconds: null } });
      } finally {
        await client.end();
      }
      expect(await isLoaded({ adminUrl, name, scale })).to.equal(true);
      expect(await isLoaded({ adminUrl, name, scale: { ...scale, products: 3001 } })).to.equal(false);
      expect(await isLoaded({ adminUrl, name: `${name}_none`, scale })).to.equal(false);
      expect(await loadedSummary(databaseUrl(adminUrl, name))).to.deep.equal({ rows: { products: 3000 }, seconds: 1.5, cpuSeconds: null });
    });
  });
}
