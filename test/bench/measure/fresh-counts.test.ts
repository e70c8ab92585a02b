import { expect } from 'chai';
import pg from 'pg';
import { freshCountsOf, productsScanStats } from '../../../bench/measure/fresh-counts.ts';
import { testDatabase } from '../../support/test-database.ts';

describe('freshCountsOf', () => {
  it("reads the server's counts from the rows the products scans read over the brand's products, and its runs from the sync index's scans", () => {
    const fresh = freshCountsOf({ before: { rows: 1_000, checks: 10 }, after: { rows: 1_000 + 45 * 4_000 + 30, checks: 60 }, brandRows: 4_000, connections: 32, seconds: 10, answers: 900 });
    expect(fresh).to.deep.include({ connections: 32, seconds: 10, answers: 900, checks: 50 });
    expect(fresh.countsRun).to.be.closeTo(45, 0.01);
    expect(fresh.freshShare).to.be.closeTo(0.9, 0.001);
    // More counts than checks (the first count has none before it): at most every run counted.
    expect(freshCountsOf({ before: { rows: 0, checks: 0 }, after: { rows: 8_000, checks: 1 }, brandRows: 4_000, connections: 2, seconds: 1, answers: 2 }).freshShare).to.equal(1);
    expect(freshCountsOf({ before: { rows: 0, checks: 0 }, after: { rows: 0, checks: 0 }, brandRows: 0, connections: 2, seconds: 1, answers: 0 }).freshShare).to.be.NaN;
    // Counts with no check at all: no remembered count lived long enough to be checked, every run counted.
    expect(freshCountsOf({ before: { rows: 0, checks: 0 }, after: { rows: 12_000, checks: 0 }, brandRows: 4_000, connections: 2, seconds: 1, answers: 3 }).freshShare).to.equal(1);
  });
});

const onPostgres = process.env.DATABASE_URL ? describe : null;

onPostgres?.('productsScanStats (Postgres)', () => {
  it("reads the products table's scan statistics", async () => {
    const client = new pg.Client({ connectionString: (await testDatabase()).url! });
    await client.connect();
    try {
      const stats = await productsScanStats(client);
      expect(stats.rows).to.be.a('number').and.at.least(0);
      expect(stats.checks).to.be.a('number').and.at.least(0);
    } finally {
      await client.end();
    }
  });
});
