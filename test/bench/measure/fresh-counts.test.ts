import { expect } from 'chai';
import pg from 'pg';
import { answerSourcesOf, freshCountsOf, productsScanStats } from '../../../bench/measure/fresh-counts.ts';
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

  it("takes the share of fresh answers from the server's metrics when it gives them: a shared running count is fresh, the remembered one is not", () => {
    const text = [
      '# HELP bcat_count_answers_total ...', '# TYPE bcat_count_answers_total counter',
      'bcat_count_answers_total{from="remembered"} 10', 'bcat_count_answers_total{from="running"} 30', 'bcat_count_answers_total{from="counted"} 60',
    ].join('\n');
    const before = answerSourcesOf(text);
    expect(before).to.deep.equal({ remembered: 10, running: 30, counted: 60 });
    expect(answerSourcesOf('bcat_http_requests_total 3'), 'a server that says nothing of its counts').to.equal(null);
    const after = { remembered: 20, running: 230, counted: 260 };
    const fresh = freshCountsOf({ before: { rows: 0, checks: 0, sources: before }, after: { rows: 40_000, checks: 25, sources: after }, brandRows: 4_000, connections: 32, seconds: 10, answers: 410 });
    expect(fresh.sources).to.deep.equal({ remembered: 10, running: 200, counted: 200 });
    expect(fresh.freshShare).to.be.closeTo(400 / 410, 1e-9);
    expect(fresh.countsRun).to.equal(10);
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
