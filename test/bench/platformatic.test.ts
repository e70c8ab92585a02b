import { expect } from 'chai';
import type { CaseFixtures } from '../../bench/measure/cases.ts';
import type { Measurement } from '../../bench/measure/measure.ts';
import { UsageError } from '../../bench/measure/options.ts';
import { answerDifferences, readAnswer, type Answer } from '../../bench/peers/platformatic-answers.ts';
import { buildPlatformaticCases, needsDeepPage, platformaticCursor, platformaticWalks, PLATFORMATIC_CASE_NAMES } from '../../bench/peers/platformatic-cases.ts';
import { platformaticConfig } from '../../bench/peers/platformatic-config.ts';
import { parsePlatformaticArgs, platformaticOutPath } from '../../bench/peers/platformatic-options.ts';
import { renderPlatformatic, summarizePlatformatic, type PlatformaticContext } from '../../bench/peers/platformatic-report.ts';
import { nodeRunsPlatformatic } from '../../bench/peers/platformatic-tools.ts';

const fixtures: CaseFixtures = {
  big: { slug: 'brand-001', id: 'b1' },
  small: { slug: 'brand-002', id: 'b2' },
  productIds: ['p1', 'p2'],
  pages: {
    second: { page: 2, cursor: 'c2.sig', after: '2023-01-01T00:00:00.000001Z,x2' },
    deep: { page: 2000, cursor: 'c2000.sig', after: '2024-06-01T00:00:00.961000Z,x2000' },
  },
  newestDeep: { page: 2000, cursor: 'n2000.sig', after: '2025-06-01T00:00:00.961000Z,y2000' },
  codeDeep: null,
};

/** The server's columns, asked of Platformatic DB (URL-encoded in a list's query). */
const FIELDS = 'id%2Ccode%2Cname%2Cstatus%2CcategoryId%2CcreatedAt%2CupdatedAt';

describe('buildPlatformaticCases', () => {
  const cases = new Map(buildPlatformaticCases({ names: PLATFORMATIC_CASE_NAMES, fixtures }).map((c) => [c.name, c]));

  it('asks Platformatic DB for the records the server and the floor are asked for, in the server\'s order', () => {
    expect(cases.get('get-by-id')!.paths).to.deep.equal({
      server: ['/api/public/v1/brands/brand-001/products/p1', '/api/public/v1/brands/brand-001/products/p2'],
      preparedFloor: ['/floor/products/b1/p1', '/floor/products/b1/p2'],
      platformatic: ['/products/p1?fields=id,code,name,status,categoryId,createdAt,updatedAt', '/products/p2?fields=id,code,name,status,categoryId,createdAt,updatedAt'],
    });
    expect(cases.get('first-page-small')!.paths.platformatic).to.deep.equal([
      `/products/?where.brandId.eq=b2&totalCount=true&orderby.createdAt=asc&orderby.id=asc&limit=25&fields=${FIELDS}`,
    ]);
    expect(cases.get('first-page-big-filter')!.paths.platformatic).to.deep.equal([
      `/products/?where.brandId.eq=b1&where.status.eq=approved&totalCount=true&orderby.createdAt=asc&orderby.id=asc&limit=25&fields=${FIELDS}`,
    ]);
    expect(cases.get('search')!.paths.platformatic).to.deep.equal([
      `/products/?where.brandId.eq=b1&where.or=%28name.ilike%3D%25parka%25%7Ccode.ilike%3D%25parka%25%29&totalCount=true&orderby.createdAt=asc&orderby.id=asc&limit=25&fields=${FIELDS}`,
    ]);
    expect(cases.get('page-2000')!.paths.platformatic[0]).to.contain('&offset=49975&');
    expect(cases.get('page-2000')!.paths.server).to.deep.equal(['/api/public/v1/brands/brand-001/products?limit=25&cursor=c2000.sig']);
    expect(cases.get('page-2000-cursor')!.paths.server).to.deep.equal(cases.get('page-2000')!.paths.server);
    expect([...cases.values()].map((c) => c.counted)).to.deep.equal([false, true, true, false, false, true, false, true, true]);
  });

  it('asks Platformatic DB the list questions in its own syntax: newest first by its cursor in that order, where.status.in, a createdAt range', () => {
    const newest = cases.get('newest-page-2000-cursor')!;
    expect(newest.title).to.equal('page 2000 of the big brand, sort=-createdAt, by cursor, Platformatic by its cursor');
    expect(newest.paths.server).to.deep.equal(['/api/public/v1/brands/brand-001/products?sort=-createdAt&limit=25&cursor=n2000.sig']);
    expect(newest.paths.preparedFloor).to.deep.equal(['/floor/products/b1?order=-createdAt&limit=25&after=2025-06-01T00%3A00%3A00.961000Z%2Cy2000']);
    const query = new URLSearchParams(newest.paths.platformatic[0]!.split('?')[1]);
    expect(Object.fromEntries(query)).to.deep.include({ 'orderby.createdAt': 'desc', 'orderby.id': 'desc', limit: '25' });
    expect(JSON.parse(Buffer.from(query.get('startAfter')!, 'base64').toString())).to.deep.equal({ createdAt: '2025-06-01T00:00:00.961000Z', id: 'y2000' });
    expect(cases.get('any-of-statuses')!.paths.platformatic).to.deep.equal([
      `/products/?where.brandId.eq=b1&where.status.in=development%2Csampling%2Cdiscontinued&totalCount=true&orderby.createdAt=asc&orderby.id=asc&limit=25&fields=${FIELDS}`,
    ]);
    expect(cases.get('created-month')!.paths.platformatic).to.deep.equal([
      `/products/?where.brandId.eq=b1&where.createdAt.gte=2024-03-01T00%3A00%3A00Z&where.createdAt.lt=2024-04-01T00%3A00%3A00Z&totalCount=true&orderby.createdAt=asc&orderby.id=asc&limit=25&fields=${FIELDS}`,
    ]);
    expect(platformaticWalks(['get-by-id', 'any-of-statuses'])).to.deep.equal([]);
    expect(platformaticWalks(['newest-page-2000-cursor', 'page-2000'])).to.deep.equal(['default', 'newest']);
  });

  it('gives Platformatic DB the deep page\'s exact position as its cursor', () => {
    const query = new URLSearchParams(cases.get('page-2000-cursor')!.paths.platformatic[0]!.split('?')[1]);
    expect(JSON.parse(Buffer.from(query.get('startAfter')!, 'base64').toString())).to.deep.equal({ createdAt: '2024-06-01T00:00:00.961000Z', id: 'x2000' });
    expect(platformaticCursor('a,b,c')).to.equal(Buffer.from('{"createdAt":"a,b","id":"c"}').toString('base64'));
    expect(needsDeepPage(['get-by-id', 'first-page-small'])).to.equal(false);
    expect(needsDeepPage(['page-2000-cursor'])).to.equal(true);
  });
});

describe('the answers of the three sides', () => {
  const list = (ids: string[], totalItems: number): Answer => readAnswer({ status: 200, totalCount: null, text: JSON.stringify({ items: ids.map((id) => ({ id })), nextCursor: 'n', totalItems }) });

  it('reads ids and totals from the server\'s lists and gets, and Platformatic\'s arrays and X-Total-Count', () => {
    expect(list(['a', 'b'], 7)).to.deep.include({ ids: ['a', 'b'], total: 7 });
    expect(readAnswer({ status: 200, totalCount: '7', text: '[{"id":"a"},{"id":"b"}]' })).to.deep.include({ ids: ['a', 'b'], total: 7 });
    expect(readAnswer({ status: 200, totalCount: null, text: '{"id":"a","name":"x"}' })).to.deep.include({ ids: ['a'], total: null });
    expect(readAnswer({ status: 500, totalCount: null, text: 'oops' })).to.deep.include({ ids: null, excerpt: 'oops' });
  });

  it('agree when every side answers 200 with the same ids, and the same total where counted', () => {
    const platformatic = readAnswer({ status: 200, totalCount: '7', text: '[{"id":"a"},{"id":"b"}]' });
    expect(answerDifferences({ answers: { server: list(['a', 'b'], 7), preparedFloor: list(['a', 'b'], 7), platformatic }, counted: true })).to.deep.equal([]);
    const uncounted = readAnswer({ status: 200, totalCount: null, text: '[{"id":"a"},{"id":"b"}]' });
    expect(answerDifferences({ answers: { server: list(['a', 'b'], 7), preparedFloor: list(['a', 'b'], 7), platformatic: uncounted }, counted: false })).to.deep.equal([]);
  });

  it('say which side differs, and how', () => {
    const other = readAnswer({ status: 200, totalCount: '8', text: '[{"id":"b"},{"id":"a"}]' });
    expect(answerDifferences({ answers: { server: list(['a', 'b'], 7), preparedFloor: list(['a', 'b'], 7), platformatic: other }, counted: true })).to.deep.equal([
      'Platformatic answers other records (2 from it, 2 from the server; first b against a)',
      'total 8 from Platformatic, 7 from the server',
    ]);
    const failed = readAnswer({ status: 400, totalCount: null, text: '{"message":"bad"}' });
    expect(answerDifferences({ answers: { server: list(['a'], 1), preparedFloor: failed, platformatic: other }, counted: false })).to.deep.equal([
      'status 400 from the prepared floor: {"message":"bad"}',
    ]);
  });
});

describe('platformaticConfig', () => {
  it('serves REST only on the process\'s PORT, with the pool given, no migrations and a quiet logger', () => {
    const config = platformaticConfig({ url: 'postgres://h/db', poolSize: 10, version: '3.67.0' });
    expect(config).to.deep.equal({
      $schema: 'https://schemas.platformatic.dev/@platformatic/db/3.67.0.json',
      server: { hostname: '127.0.0.1', port: '{PORT}', logger: { level: 'warn' } },
      db: { connectionString: 'postgres://h/db', poolSize: 10, graphql: false, openapi: true, events: false, include: { products: true, brands: true, categories: true } },
    });
  });
});

describe('parsePlatformaticArgs', () => {
  it('defaults to the bench\'s scale, halves of 8 s, 32 connections and every case', () => {
    expect(parsePlatformaticArgs({ args: [], env: {} })).to.deep.include({
      scale: { products: 1_000_000, brands: 200, bigBrand: 200_000 }, halfSeconds: 8, warmupSeconds: 3, connections: 32,
      cases: [...PLATFORMATIC_CASE_NAMES], redisUrl: 'redis://127.0.0.1:6379', toolsDir: '/tmp/bcat-bench-tools', out: null,
    });
    expect(parsePlatformaticArgs({ args: ['--duration', '2', '--cases', 'page-2000-cursor,get-by-id'], env: { BENCH_TOOLS_DIR: '/x', REDIS_URL: '' } }))
      .to.deep.include({ halfSeconds: 2, warmupSeconds: 1, cases: ['get-by-id', 'page-2000-cursor'], toolsDir: '/x', redisUrl: null });
    expect(platformaticOutPath({ scale: { products: 10, brands: 2, bigBrand: 5 }, date: new Date('2026-11-26T07:05:00Z') }))
      .to.match(/\/bench\/results\/p10-b2-g5-2026-11-26T07-05-platformatic\.md$/);
  });

  it('refuses unknown cases and options, and the bench\'s options it does not take', () => {
    for (const args of [['--cases', 'include'], ['--cases', ','], ['--keep-data'], ['--duration', '0']]) {
      expect(() => parsePlatformaticArgs({ args, env: {} }), args.join(' ')).to.throw(UsageError);
    }
  });
});

describe('nodeRunsPlatformatic', () => {
  it('takes Node 22.19 and later', () => {
    expect(['20.20.2', '22.18.0', '22.19.0', 'v24.1.0', '23.0.0'].map(nodeRunsPlatformatic)).to.deep.equal([false, false, true, true, true]);
  });
});

describe('summarizePlatformatic and renderPlatformatic', () => {
  const context: PlatformaticContext = {
    scale: { products: 1_000_000, brands: 200, bigBrand: 200_000 }, startedAt: '2026-11-26T07:00:00.000Z', durationSeconds: 16, warmupSeconds: 3,
    connections: 32, poolMax: 10, platformaticVersion: '3.67.0', node: '24.21.0',
    machine: { cpus: 2, loadAverage: { before: [1, 1, 1], after: [2, 2, 2] }, postgres: 'PostgreSQL 15.19' },
  };
  const run = (requestsPerSecond: number, cpuMsPerRequest: number): Measurement => ({
    requests: requestsPerSecond * 16, seconds: 16, requestsPerSecond, p50Ms: 1000 / requestsPerSecond, p99Ms: 3, errors: 0, non2xx: 0, peakRssBytes: null, cpuMsPerRequest,
  });

  it('puts each side against the prepared floor and the server against Platformatic DB', () => {
    const report = summarizePlatformatic({
      context,
      results: [
        { name: 'get-by-id', title: 'get', measured: { server: run(3000, 0.3), preparedFloor: run(6000, 0.15), platformatic: run(2000, 0.45) }, differences: [] },
        { name: 'page-2000', title: 'deep', measured: { server: run(900, 0.6), preparedFloor: run(1000, 0.5), platformatic: run(1800, 0.4) }, differences: ['x'] },
      ],
    });
    expect(report.cases[0]!.requestsVsFloor).to.deep.equal({ server: 0.5, preparedFloor: 1, platformatic: 2000 / 6000 });
    expect(report.cases[0]!.serverVsPlatformatic.requests).to.equal(1.5);
    expect(report.cases[0]!.cpuVsFloor.server).to.equal(2);
    expect(report.fasterOnEveryCase).to.equal(false);
    const markdown = renderPlatformatic(report);
    expect(markdown).to.contain('| get | server | 3,000 | 0.33 | 3.00 | 0 | n/a | 0.300 | 0.50× | 2.00× |');
    expect(markdown).to.contain('| deep | **0.50×** | 2.00× | 1.50× | **no**: x |');
    expect(markdown).to.contain('Faster than Platformatic DB on every case (req/s, issue 17): **no**.');
  });
});
