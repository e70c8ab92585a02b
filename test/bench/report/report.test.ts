import { expect } from 'chai';
import type { Measurement } from '../../../bench/measure/measure.ts';
import { renderMarkdown, summarize, type CaseResult, type RunContext } from '../../../bench/report/report.ts';

const context: RunContext = {
  scale: { products: 1_000_000, brands: 200, bigBrand: 200_000 },
  startedAt: '2026-11-21T08:00:00.000Z',
  durationSeconds: 10,
  warmupSeconds: 2,
  connections: 32,
  smoke: null,
  poolMax: 10,
  load: { seconds: 38.25, cpuSeconds: 61.04, reused: false, rows: { products: 1_000_000, skus: 1_000_000 } },
  machine: { cpus: 2, loadAverage: { before: [1, 0.5, 0.25], after: [2, 1, 0.5] }, node: '20.20.2', postgres: 'PostgreSQL 15.20' },
  idleRssBytes: { server: 150 * 2 ** 20, floor: 100 * 2 ** 20 },
};

const MB = 2 ** 20;
const run = (requestsPerSecond: number, p50Ms: number, peakRssMb: number | null = 100, cpuMsPerRequest = 0.5): Measurement => ({
  requests: requestsPerSecond * 10, seconds: 10, requestsPerSecond, p50Ms, p99Ms: p50Ms * 3, errors: 0, non2xx: 0,
  peakRssBytes: peakRssMb === null ? null : peakRssMb * MB, cpuMsPerRequest,
});
/** The prepared floor, unless given, as fast as the floor. */
const result = (name: CaseResult['name'], server: Measurement, floor: Measurement, preparedFloor: Measurement = floor): CaseResult =>
  ({ name, title: name, server, floor, preparedFloor, differences: [] });

const writes = (tps: number) => ({ transactions: tps * 10, tps, latencyMs: 2 / tps * 1000 });

/** The targets of a get with a restricted key. */
const RESTRICTED_GET_TARGETS = [
  "get by id with a key restricted to an area: the server's req/s with it / with the unrestricted key",
  "get by id with a key restricted to an area: the server's CPU per request with it / with the unrestricted key",
];

/** The targets of the list questions (CONTRACT.md §8), in the order of the table. */
const LIST_QUESTION_TARGETS = [
  "sort=-createdAt, big brand first page with its total: its ratio to the prepared floor / the default order's",
  "sort=-createdAt, page 2000 by cursor: its ratio to the prepared floor / the default order's page 2000",
  "sort=code, page 2000 by cursor: req/s vs the prepared floor's OFFSET page",
  'three statuses at once, first page with its total: req/s vs prepared floor',
  'one month of createdAt, first page with its total: req/s vs prepared floor',
  "counts by status, nothing written (the remembered count): req/s vs the prepared floor's GROUP BY",
  "under 20 writes/s to the brands read: counts by status vs the prepared floor's GROUP BY, worst over the connection counts",
  "under 200 writes/s to the big brand: counts by status vs the prepared floor's GROUP BY, worst over the connection counts",
  "under 200 writes/s to the big brand: share of the server's counts answers from a count run during the request (each answer a fresh count)",
  "writers' updates/s on products with the list questions' indexes / without",
  "concurrent build of the list questions' products indexes: the writer's commits/s during the build / before",
];

describe('summarize', () => {
  it('compares each case with the floor, the deep page with page 2, and peak memory, against the targets', () => {
    const report = summarize({
      context,
      cases: [
        result('get-by-id', run(900, 3, 180, 0.26), run(1000, 3, 100), run(1200, 2, 100, 0.2)),
        result('first-page-small', run(700, 4), run(1000, 3)),
        result('first-page-big-filter', run(600, 5), run(100, 40, 120)),
        result('page-2', run(500, 4), run(400, 5)),
        result('page-2000', run(450, 5), run(380, 6)),
      ],
    });
    expect(report.cases.map((c) => c.requestsRatio)).to.deep.equal([0.9, 0.7, 6, 1.25, 450 / 380]);
    expect(report.cases[0]).to.deep.include({ preparedRatio: 0.75, cpuRatio: 1.3 });
    expect(report.deepPaging.server).to.equal(5 / 4);
    expect(report.deepPaging.floor).to.equal(6 / 5);
    expect(report.rss).to.deep.equal({ server: 180 * MB, floor: 120 * MB, ratio: 1.5 });
    expect(report.targets.map((t) => [t.label, t.met])).to.deep.equal([
      ['get by id: req/s vs floor', true],
      ['get by id: req/s vs prepared floor', false],
      ['get by id: CPU per request vs prepared floor', true],
      ...RESTRICTED_GET_TARGETS.map((label) => [label, null]),
      ['first page, small brand: req/s vs floor', false],
      ['first page, big brand with filter: req/s vs floor', true],
      ['deep page p50 / page 2 p50 (server)', false],
      ['RSS ratio: server peak / floor peak', true],
      ['under 200 writes/s to other brands: big filtered first page vs floor, worst over the connection counts', null],
      ['under 20 writes/s to the brands read: big filtered first page vs floor, worst over the connection counts', null],
      ['changes page of 100: list req/s / changes req/s', null],
      ["writers' updates/s with the feed's triggers / without", null],
      ...LIST_QUESTION_TARGETS.map((label) => [label, null]),
    ]);
  });

  it("judges the list questions against the prepared floor: newest first against the default order's ratios, the others against the floor's own", () => {
    const report = summarize({
      context,
      cases: [
        // The default order: 2× and 4× the prepared floor; newest first: 1.9× (0.95 of it) and 3× (0.75 of it).
        result('first-page-big', run(1000, 3), run(400, 5), run(500, 4)),
        result('newest-first-page', run(950, 3), run(400, 5), run(500, 4)),
        result('page-2000', run(800, 3), run(150, 5), run(200, 4)),
        result('newest-page-2000', run(600, 3), run(150, 5), run(200, 4)),
        result('code-page-2000', run(800, 3), run(60, 50), run(80, 40)),
        result('any-of-statuses', run(500, 3), run(400, 5), run(600, 4)),
        result('created-month', run(500, 3), run(400, 5), run(450, 4)),
        result('counts-status', run(3000, 3), run(250, 50), run(300, 40)),
      ],
      loaded: [
        { load: 'writes-own-brand', writesPerSecond: 20, cases: [], freshCounts: { connections: 32, seconds: 10, answers: 30000, countsRun: 100, checks: 1000, sources: null, freshShare: 0.1 } },
        { load: 'writes-big-brand', writesPerSecond: 200, cases: [], freshCounts: { connections: 32, seconds: 10, answers: 3000, countsRun: 290, checks: 300, sources: null, freshShare: 290 / 300 } },
      ],
      feed: {
        pages: null, batches: null, writers: null,
        indexWriters: { clients: 2, indexes: ['i'], withIndexes: writes(900), withoutIndexes: writes(1000), cost: 0.1, rebuildSeconds: [1.5] },
        indexBuild: {
          indexes: ['i'], products: 1000, seconds: 2, writerRate: 200, keptCommitting: true,
          before: { seconds: 3, commits: 600, commitsPerSecond: 200, longestGapMs: 20, meanLatencyMs: 2, maxLatencyMs: 9 },
          during: { seconds: 2, commits: 380, commitsPerSecond: 190, longestGapMs: 40, meanLatencyMs: 3, maxLatencyMs: 30 },
        },
      },
    });
    const judged = new Map(report.targets.map((t) => [t.label, [t.value, t.met]]));
    expect(LIST_QUESTION_TARGETS.map((label) => judged.get(label))).to.deep.equal([
      [0.95, true], [0.75, false], [10, true], [500 / 600, false], [500 / 450, true], [10, true],
      [null, null], [null, null], [290 / 300, true],
      [0.9, true], [0.95, true],
    ]);
    // 20 writes/s spread over the brands read leave most counts reusable: its share (0.1 here) is reported, not judged.
    expect(report.targets.filter((t) => t.label.includes('run during the request')).map((t) => t.label)).to.deep.equal([LIST_QUESTION_TARGETS[8]]);
  });

  it("judges a restricted key's get by the server's own figures with the unrestricted key, whatever the floors did", () => {
    const report = summarize({
      context,
      cases: [
        // The server: 864 req/s with the restricted key against 900 (0.96×), 0.55 ms of CPU a request against 0.5 (1.1×).
        // The floors, the same work each time, ran 1000 and 1300 req/s: the judgement leaves them out.
        result('get-by-id', run(900, 3, 100, 0.5), run(1000, 3), run(1000, 3, 100, 0.4)),
        result('get-by-id-restricted', run(864, 3, 100, 0.55), run(1300, 3), run(1300, 3, 100, 0.3)),
      ],
    });
    const judged = new Map(report.targets.map((t) => [t.label, [t.value, t.met]]));
    const [requests, cpu] = RESTRICTED_GET_TARGETS.map((label) => judged.get(label)!);
    expect(requests![0]).to.be.closeTo(0.96, 1e-9);
    expect(requests![1]).to.equal(true);
    expect(cpu![0]).to.be.closeTo(1.1, 1e-9);
    expect(cpu![1]).to.equal(false);
  });

  it('leaves a target unjudged when its cases were not run or memory could not be read', () => {
    const report = summarize({ context, cases: [result('search', run(100, 10, null), run(200, 5, null))] });
    expect(report.cases[0]!.requestsRatio).to.equal(0.5);
    expect(report.deepPaging).to.deep.equal({ server: null, floor: null });
    expect(report.rss.ratio).to.equal(null);
    expect(report.targets.every((t) => t.value === null && t.met === null)).to.equal(true);
  });
});

describe('renderMarkdown', () => {
  it('prints a row per case and server, the ratios, and a line per target', () => {
    const report = summarize({
      context,
      cases: [
        result('get-by-id', run(1234.4, 2.345, 180), run(1500, 1.5, 120)),
        { ...result('include', run(300, 12.34), run(600, 6)), differences: ['item 3 differs'] },
      ],
    });
    const markdown = renderMarkdown(report);
    expect(markdown).to.contain('## Benchmark: 1,000,000 products, 200 brands (the big one 200,000)');
    expect(markdown).to.contain('loaded in 38.3 s (61.0 s of Postgres CPU): products 1,000,000, skus 1,000,000');
    expect(markdown).to.contain('| get-by-id | server | 1,234 | 2.35 | 7.04 | 0 | 180 | 0.50 | 0.82× | 0.82× | 1.00× | yes |');
    expect(markdown).to.contain('|  | floor | 1,500 | 1.50 | 4.50 | 0 | 120 | 0.50 |  |  |  |  |');
    expect(markdown).to.contain('|  | prepared floor | 1,500 | 1.50 | 4.50 | 0 | 120 | 0.50 |  |  |  |  |');
    expect(markdown).to.contain('| include | server | 300 | 12.3 | 37.0 | 0 | 100 | 0.50 | 0.50× | 0.50× | 1.00× | **no**: item 3 differs |');
    expect(markdown).to.contain('load average 1.00 / 0.50 / 0.25 at the start and 2.00 / 1.00 / 0.50 at the end');
    expect(markdown).to.contain('RSS ratio (peak under load, server / floor): 1.50× (180 MB / 120 MB)');
    expect(markdown).to.contain('| get by id: req/s vs floor | 0.82× | ≥ 0.8 | yes |');
    expect(markdown).to.contain('| deep page p50 / page 2 p50 (server) | n/a | ≤ 1.2 | not run |');
    expect(markdown).not.to.contain('changes page of 100 against');
    expect(markdown).to.contain('after 2 s of warm-up, 32 connections, 10 Postgres connections per server');
    expect(renderMarkdown({ ...report, smoke: { requests: 25 } })).to.contain('32 connections, 25 requests a run (a smoke run: its rates mean nothing), 10 Postgres');
  });

  it("prints the feed's cases and judges their targets", () => {
    const batch = { items: 2100, deletes: 50, pages: 3, seconds: 0.5 };
    const report = summarize({
      context,
      cases: [],
      feed: {
        pages: { list: run(1000, 20), changes: run(800, 25), ratio: 1.25 },
        batches: {
          fullSync: { items: 200_000, deletes: 0, pages: 200, seconds: 20 },
          small: { ...batch, changed: 2100 },
          large: { items: 20_000, deletes: 0, pages: 20, seconds: 4, changed: 20_000 },
          emptyPoll: { calls: 30, p50Ms: 1.5, p99Ms: 4 },
        },
        writers: { clients: 2, withTriggers: writes(800), withoutTriggers: writes(1000), cost: 0.2 },
        indexWriters: { clients: 2, indexes: ['products_brand_id_name_created_at_id_idx'], withIndexes: writes(950), withoutIndexes: writes(1000), cost: 0.05, rebuildSeconds: [1.25] },
        indexBuild: {
          indexes: ['products_brand_id_name_created_at_id_idx'], products: 1_000_000, seconds: 12.34, writerRate: 200, keptCommitting: false,
          before: { seconds: 4.5, commits: 900, commitsPerSecond: 200, longestGapMs: 21, meanLatencyMs: 1.5, maxLatencyMs: 12 },
          during: { seconds: 12.34, commits: 1234, commitsPerSecond: 100, longestGapMs: 1500, meanLatencyMs: 25, maxLatencyMs: 1600 },
        },
      },
    });
    const feedTargets = new Map(report.targets.map((t) => [t.label, [t.value, t.met]]));
    expect(feedTargets.get('changes page of 100: list req/s / changes req/s')).to.deep.equal([1.25, true]);
    expect(feedTargets.get("writers' updates/s with the feed's triggers / without")).to.deep.equal([0.8, false]);
    expect(feedTargets.get("writers' updates/s on products with the list questions' indexes / without")).to.deep.equal([0.95, true]);
    expect(feedTargets.get("concurrent build of the list questions' products indexes: the writer's commits/s during the build / before")).to.deep.equal([0.5, false]);
    const markdown = renderMarkdown(report);
    expect(markdown).to.contain('| list | 1,000 | 20.0 | 60.0 | 0 | 0.50 |');
    expect(markdown).to.contain('| changes | 800 | 25.0 | 75.0 | 0 | 0.50 |');
    expect(markdown).to.contain('| full sync (no token) |  | 200,000 (0 deletes) | 200 | 20.00 | 10,000 |');
    expect(markdown).to.contain('| incremental: 1 % updated, 100 inserted, 50 of them deleted | 2,100 | 2,100 (50 deletes) | 3 | 0.50 | 4,200 |');
    expect(markdown).to.contain('p50 1.50 ms, p99 4.00 ms over 30 calls');
    expect(markdown).to.contain('| on | 800 | 2.500 |');
    expect(markdown).to.contain("The triggers' cost to writers: 20.0 % of their throughput.");
    expect(markdown).to.contain("| writers' updates/s with the feed's triggers / without | 0.80× | ≥ 0.85 | **no** |");
    expect(markdown).to.contain('| present | 950 | 2.105 |');
    expect(markdown).to.contain("The indexes' cost to writers on products: 5.0 % of their throughput.");
    expect(markdown).to.contain('dropped: `products_brand_id_name_created_at_id_idx` (the migration\'s indexes on products), built again by its `up` (1.3 s).');
    expect(markdown).to.contain('on 1,000,000 products in **12.3 s**, while pgbench committed single-row updates of random products at a steady 200/s');
    expect(markdown).to.contain('| during the build | 12.3 | 1,234 | 100.0 | 1500 | 25.0 | 1600.0 |');
    expect(markdown).to.contain('The writer **was held up during the build**.');
  });
});
