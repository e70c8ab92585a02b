import { expect } from 'chai';
import pg from 'pg';
import { dropIndexes, migrationIndexes, presentIndexes, runMigrationUp, tableIndexes } from '../../../bench/measure/list-question-indexes.ts';
import { writerWindow } from '../../../bench/measure/measure-index-build.ts';
import { testDatabase } from '../../support/test-database.ts';

describe("the list questions' indexes, as their migration builds them", () => {
  it("are read from the migration's own up: its statements, each index's table", async () => {
    const all = await migrationIndexes();
    expect(all.length).to.be.greaterThan(50);
    expect(all.every((index) => index.ddl.startsWith(`create index concurrently "${index.name}" on "${index.table}"`))).to.equal(true);
    expect((await tableIndexes('products')).map((index) => index.name)).to.deep.equal(['products_brand_id_name_created_at_id_idx']);
  });
});

describe('writerWindow', () => {
  it("counts a writer's commits in a stretch, its rate, its longest time without one (edges included) and its latencies", () => {
    const logged = [900, 1000, 1100, 1600, 1700, 2100].map((endedAtMs, i) => ({ endedAtMs, latencyMs: i + 1 }));
    expect(writerWindow(logged, 1000, 2000)).to.deep.equal({
      seconds: 1, commits: 4, commitsPerSecond: 4, longestGapMs: 500, meanLatencyMs: 3.5, maxLatencyMs: 5,
    });
    const none = writerWindow(logged, 1200, 1500);
    expect(none).to.deep.include({ commits: 0, longestGapMs: 300 });
    expect(none.meanLatencyMs).to.be.NaN;
  });
});

const onPostgres = process.env.DATABASE_URL ? describe : null;

onPostgres?.("the list questions' indexes on Postgres", () => {
  it("are dropped, and built again by the migration's up", async () => {
    const { url } = await testDatabase();
    const indexes = await tableIndexes('products');
    const client = new pg.Client({ connectionString: url! });
    await client.connect();
    try {
      expect(await presentIndexes({ client, indexes })).to.deep.equal(['products_brand_id_name_created_at_id_idx']);
      await dropIndexes({ client, indexes });
      expect(await presentIndexes({ client, indexes })).to.deep.equal([]);
      expect(await runMigrationUp(url!)).to.be.greaterThan(0);
      expect(await presentIndexes({ client, indexes })).to.deep.equal(['products_brand_id_name_created_at_id_idx']);
    } finally {
      if ((await presentIndexes({ client, indexes })).length === 0) await runMigrationUp(url!);
      await client.end();
    }
  });
});
