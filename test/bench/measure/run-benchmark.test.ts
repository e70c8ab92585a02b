import { expect } from 'chai';
import pg from 'pg';
import { CASE_NAMES } from '../../../bench/measure/cases.ts';
import { FEED_CASE_NAMES } from '../../../bench/measure/feed-cases.ts';
import { COMPRESSION_CASE_NAMES } from '../../../bench/measure/compression-cases.ts';
import type { WriteLoadName } from '../../../bench/measure/write-loads.ts';
import { benchDatabaseName, databaseUrl, dropDatabase } from '../../../bench/data/bench-database.ts';
import { COMMON_STATUS, LOADED_TABLES, SEARCH_WORD, expectedRows } from '../../../bench/data/data-shape.ts';
import { isLoaded } from '../../../bench/data/loaded-marker.ts';
import { renderMarkdown, type BenchReport } from '../../../bench/report/report.ts';
import { runBenchmark } from '../../../bench/measure/run-benchmark.ts';
import { SMOKE_CAP } from '../../../bench/measure/measure.ts';
import { planBrands, type Scale } from '../../../bench/data/scale.ts';
import { testDatabase } from '../../support/test-database.ts';

/** Small enough for a test, big enough for every case (the big brand has 60 pages of 25). */
const SCALE: Scale = { products: 3000, brands: 5, bigBrand: 1500 };

async function query<T>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

// The whole pipeline needs real Postgres (the server and the floor run on it); without it the pure parts are tested alone.
const postgres = process.env.DATABASE_URL ? [process.env.DATABASE_URL] : [];

for (const adminUrl of postgres) {
  describe('runBenchmark on Postgres, at a tiny scale', function () {
    this.timeout(240_000);
    const name = benchDatabaseName(SCALE);
    const url = databaseUrl(adminUrl, name);
    const options = {
      // A smoke run (`npm run bench -- --smoke`): every case, floor and report runs, 200 requests a run.
      scale: SCALE, durationSeconds: 1, warmupSeconds: 0, connections: 4, smoke: SMOKE_CAP, cases: CASE_NAMES, feed: FEED_CASE_NAMES, writeLoads: ['writes-own-brand'] as WriteLoadName[], compression: COMPRESSION_CASE_NAMES,
      // Few connections: a busy test machine keeps a floor at 256 from answering within a one-second run.
      loadConnections: [2, 4],
      // Not the check of how fresh the server's counts were: it waits twice for Postgres's statistics to settle,
      // some 25 s (test/bench/measure/fresh-counts.test.ts tests its parts).
      checkFreshCounts: false,
      adminUrl, redisUrl: process.env.REDIS_URL ?? null,
    };
    let report: BenchReport;

    before(async () => {
      await dropDatabase({ adminUrl, name });
      report = await runBenchmark({ options: { ...options, keepData: true }, log: () => {} });
    });
    after(() => dropDatabase({ adminUrl, name }));

    it('measures every case on the server and both floors, with the same answers and no errors', () => {
      expect(report.cases.map((c) => c.name)).to.deep.equal([...CASE_NAMES]);
      for (const c of report.cases) {
        expect(c.differences, c.name).to.deep.equal([]);
        for (const m of [c.server, c.floor, c.preparedFloor]) {
          expect(m.requests, c.name).to.be.greaterThan(0);
          expect(m.errors + m.non2xx, c.name).to.equal(0);
          expect(m.p50Ms, c.name).to.be.greaterThan(0).and.at.most(m.p99Ms);
          expect(m.peakRssBytes, c.name).to.be.greaterThan(10 * 2 ** 20);
          expect(m.cpuMsPerRequest, c.name).to.be.greaterThan(0);
        }
        expect(c.requestsRatio, c.name).to.be.greaterThan(0);
        expect(c.preparedRatio, c.name).to.be.greaterThan(0);
        expect(c.cpuRatio, c.name).to.be.greaterThan(0);
      }
      // The big brand has 60 pages: the deep page is its last, in every order.
      expect(report.cases.find((c) => c.name === 'page-2000')!.title).to.equal('page 60 of the big brand, by cursor');
      expect(report.cases.find((c) => c.name === 'newest-page-2000')!.title).to.equal('page 60 of the big brand, sort=-createdAt, by cursor');
      expect(report.cases.find((c) => c.name === 'code-page-2000')!.title).to.equal('page 60 of the big brand, sort=code, by cursor (the floor by OFFSET)');
      expect(report.deepPaging.server).to.be.greaterThan(0);
      expect(report.rss.ratio).to.be.greaterThan(0);
      expect(report.load).to.deep.include({ reused: false, rows: expectedRows(planBrands(SCALE)) });
      expect(report.load.cpuSeconds).to.be.greaterThan(0);
      expect(renderMarkdown(report)).to.contain('| RSS ratio: server peak / floor peak |');
      // Every target of the list questions measured in this run is judged (the loads not run are not).
      const judged = report.targets.filter((t) => /^(sort=|three statuses|one month|counts by status)/.test(t.label));
      expect(judged).to.have.length(6);
      expect(judged.every((t) => t.value !== null && t.value > 0 && t.met !== null)).to.equal(true);
    });

    it("measures the feed's cases: pages, batches that carry what was written, the writers with and without the triggers and the new indexes, the indexes' build", async () => {
      const { pages, batches, writers, indexWriters, indexBuild } = report.feed;
      for (const m of [pages!.list, pages!.changes]) {
        expect(m.requests).to.be.greaterThan(0);
        expect(m.errors + m.non2xx).to.equal(0);
      }
      expect(pages!.ratio).to.be.greaterThan(0);
      expect(batches!.fullSync).to.deep.include({ items: 1500, deletes: 0, pages: 2 });
      // 1 % of 1,500 updated, 100 inserted, 50 of those deleted; then 10 % updated. Delivery is at least
      // once: a transaction open elsewhere in the cluster (another test worker's) can bring repeats.
      expect(batches!.small).to.deep.include({ changed: 115, deletes: 50 });
      expect(batches!.small.items).to.be.at.least(115);
      expect(batches!.large).to.deep.include({ changed: 150, deletes: 0 });
      expect(batches!.large.items).to.be.at.least(150);
      expect(batches!.emptyPoll.p50Ms).to.be.greaterThan(0);
      expect(writers!.withTriggers.transactions).to.be.greaterThan(0);
      expect(writers!.withoutTriggers.transactions).to.be.greaterThan(0);
      expect(indexWriters!.indexes).to.deep.equal(['products_brand_id_name_created_at_id_idx']);
      expect(indexWriters!.withIndexes.transactions).to.be.greaterThan(0);
      expect(indexWriters!.withoutIndexes.transactions).to.be.greaterThan(0);
      expect(indexBuild).to.deep.include({ indexes: ['products_brand_id_name_created_at_id_idx'], products: 3000, writerRate: 200 });
      expect(indexBuild!.seconds).to.be.greaterThan(0);
      expect(indexBuild!.before.commits).to.be.greaterThan(0);
      // The run leaves the data as it found it: the triggers on, the indexes built and valid, no inserted product, no helper table.
      const [state] = await query<{ disabled: number; inserted: number; helper: string | null; index: boolean }>(url,
        `select (select count(*)::int from pg_trigger where tgrelid = 'products'::regclass and tgenabled = 'D') as disabled,
                (select count(*)::int from products where code like 'FEED-BENCH-%') as inserted,
                coalesce(to_regclass('bench_writer_ids')::text, to_regclass('bench_build_writer_ids')::text) as helper,
                (select indisvalid from pg_index where indexrelid = to_regclass('products_brand_id_name_created_at_id_idx')) as index`);
      expect(state).to.deep.equal({ disabled: 0, inserted: 0, helper: null, index: true });
      expect(renderMarkdown(report)).to.contain("The triggers' cost to writers:");
      expect(renderMarkdown(report)).to.contain("The indexes' cost to writers on products:");
    });

    it('measures a list page of 100 and a get without compression, in gzip and in Brotli: bytes and CPU per request', () => {
      expect(report.compression.map((row) => row.request)).to.deep.equal(['list-page-100', 'get-by-id']);
      for (const row of report.compression) {
        expect(row.runs.map((run) => run.coding)).to.deep.equal(['identity', 'gzip', 'br']);
        for (const run of row.runs) {
          expect(run.measurement.requests, `${row.request} ${run.coding}`).to.be.greaterThan(0);
          expect(run.measurement.errors + run.measurement.non2xx, `${row.request} ${run.coding}`).to.equal(0);
          expect(run.measurement.cpuMsPerRequest, `${row.request} ${run.coding}`).to.be.greaterThan(0);
          expect(run.bodyBytes, `${row.request} ${run.coding}`).to.be.greaterThan(0);
        }
      }
      const list = report.compression[0]!.runs;
      expect(list[1]!.encodedShare).to.equal(1);
      expect(list[2]!.bodyBytes).to.be.lessThan(list[0]!.bodyBytes / 2);
      expect(renderMarkdown(report)).to.contain('### Response compression');
    });

    it('measures the cases again under a write load, at each connection count asked, on the server and both floors', () => {
      expect(report.loaded.map((run) => run.load)).to.deep.equal(['writes-own-brand']);
      const [run] = report.loaded;
      // pgbench keeps to its rate (20/s) whatever the machine does; over the few seconds of a smoke run's loaded
      // phase its random schedule (and its catch-up after a slow start) reads anywhere from about 15 to 30.
      expect(run!.writesPerSecond).to.be.within(10, 40);
      expect(run!.cases.map((c) => `${c.name}@${c.connections}`)).to.deep.equal(
        [2, 4].flatMap((n) => ['get-by-id', 'first-page-small', 'first-page-big-filter', 'counts-status'].map((name) => `${name}@${n}`)),
      );
      expect(run!.freshCounts).to.equal(null);
      for (const c of run!.cases) {
        for (const m of [c.server, c.floor, c.preparedFloor]) {
          expect(m.requests, `${c.name}@${c.connections}`).to.be.greaterThan(0);
          expect(m.errors + m.non2xx, `${c.name}@${c.connections}`).to.equal(0);
        }
      }
      expect(renderMarkdown(report)).to.contain('### Under a write load: 20 writes/s to the brands being read');
    });

    it('loads a consistent data set: every reference resolves, every index is back, half the products approved', async () => {
      const references = await query<{ child: string; column: string; parent: string; target: string }>(url,
        `select c.relname as "child", a.attname as "column", p.relname as "parent", pa.attname as "target"
           from pg_constraint k
           join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
           join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
           join pg_attribute pa on pa.attrelid = k.confrelid and pa.attnum = k.confkey[1]
          where k.contype = 'f' and c.relname = any($1)`, [[...LOADED_TABLES]]);
      expect(references.length).to.be.greaterThan(15);
      for (const r of references) {
        const [dangling] = await query<{ n: number }>(url,
          `select count(*)::int as n from "${r.child}" c where c."${r.column}" is not null
             and not exists (select 1 from "${r.parent}" p where p."${r.target}" = c."${r.column}")`);
        expect(dangling!.n, `${r.child}.${r.column} -> ${r.parent}`).to.equal(0);
      }

      const indexes = `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = any($1) order by indexname`;
      // The test run's own database, freshly migrated, has every index the migrations make.
      const migrated = await testDatabase();
      expect(await query(url, indexes, [[...LOADED_TABLES]])).to.deep.equal(await query(migrated.url!, indexes, [[...LOADED_TABLES]]));

      const [big] = await query<{ total: number; approved: number; distinctTimes: number; found: number }>(url,
        `select count(*)::int as total, count(*) filter (where p.status = $2)::int as approved,
                count(distinct p.created_at)::int as "distinctTimes", count(*) filter (where p.name ilike $3)::int as found
           from products p join brands b on b.id = p.brand_id where b.slug = $1`, ['brand-001', COMMON_STATUS, `%${SEARCH_WORD}%`]);
      expect(big).to.deep.include({ total: 1500, approved: 750, distinctTimes: 1500 });
      expect(big!.found).to.be.within(1, 200);
    });

    it('marks the kept database loaded at its scale (test/bench/loaded-marker.test.ts checks the marker itself)', async () => {
      expect(await isLoaded({ adminUrl, name, scale: SCALE })).to.equal(true);
    });

    it('drops its database at the end unless asked to keep it, also when stopped part way (loading afresh, not reusing the kept one)', async () => {
      // Stopped once its data is loaded: a run ends the same way whether it measured everything or was stopped, in its
      // `finally`; so this second run costs a load, not a server, a floor and their measures.
      const stop = new AbortController();
      const lines: string[] = [];
      const log = (line: string): void => {
        lines.push(line);
        if (line.startsWith('loaded in')) stop.abort(new Error('stopped by the test after the load'));
      };
      const stopped = await runBenchmark({ options: { ...options, cases: ['get-by-id'], feed: [], writeLoads: [], compression: [], keepData: false }, log, signal: stop.signal })
        .then(() => null, (error: unknown) => error);
      expect(String(stopped)).to.contain('stopped by the test after the load');
      expect(lines[0]).to.equal(`loading ${name}`);
      expect(lines.at(-1)).to.equal(`dropped ${name}`);
      expect(await query(adminUrl, 'select 1 from pg_database where datname = $1', [name])).to.deep.equal([]);
    });
  });
}
