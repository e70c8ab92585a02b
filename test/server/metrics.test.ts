import { expect } from 'chai';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { createReadReplicas, type ReadReplicas } from '../../src/db/connection/read-replicas.ts';
import { createMetrics, type Metrics } from '../../src/server/metrics.ts';
import { collectingLogger } from '../support/collecting-logger.ts';
import { testDatabase } from '../support/test-database.ts';

/** A context of a request, as the app gets it: method, path and, once routed, the route's pattern. */
function contextOf(method: string, url: string, route?: string): Koa.Context {
  const request = new IncomingMessage(new Socket());
  request.method = method;
  request.url = url;
  const ctx = new Koa().createContext(request, new ServerResponse(request));
  if (route) (ctx as { _matchedRoute?: string })._matchedRoute = route;
  return ctx;
}

/** `GET /metrics` through the endpoint: its text, and whether the request went on instead. */
async function scrape(metrics: Metrics, method = 'GET', url = '/metrics'): Promise<{ ctx: Koa.Context; passed: boolean }> {
  const ctx = contextOf(method, url);
  let passed = false;
  await metrics.endpoint(ctx, async () => {
    passed = true;
  });
  return { ctx, passed };
}

const lines = (text: string, name: string): string[] => text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));

describe('createMetrics', () => {
  let reads: ReadReplicas;
  let waiting = 0;
  let metrics: Metrics;

  before(async () => {
    const { db } = await testDatabase();
    reads = createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: collectingLogger().logger });
    metrics = createMetrics({ db, reads, waiting: () => waiting });
  });
  after(() => reads.close());

  it('answers GET and HEAD /metrics in the text exposition, never to be stored, with the process\'s, the pool\'s and the waiting requests\'', async () => {
    waiting = 3;
    const { ctx, passed } = await scrape(metrics);
    expect(passed).to.equal(false);
    expect(ctx.response.get('Content-Type')).to.match(/^text\/plain; version=0\.0\.4/);
    expect(ctx.response.get('Cache-Control')).to.equal('no-store');
    const text = ctx.body as string;
    expect(lines(text, 'bcat_live_waiting_requests')).to.deep.equal(['bcat_live_waiting_requests 3']);
    expect(text).to.contain('bcat_process_cpu_user_seconds_total').and.contain('bcat_nodejs_eventloop_lag_seconds').and.contain('bcat_db_pool_connections{state="used"}');
    expect((await scrape(metrics, 'HEAD')).passed).to.equal(false);
  });

  it('counts totals by where their count came from, each series there from the start', async () => {
    const fresh = createMetrics({ db: (await testDatabase()).db, reads });
    expect(lines((await scrape(fresh)).ctx.body as string, 'bcat_count_answers_total')).to.have.members([
      'bcat_count_answers_total{from="remembered"} 0', 'bcat_count_answers_total{from="running"} 0', 'bcat_count_answers_total{from="counted"} 0',
    ]);
    metrics.countAnswered('counted');
    metrics.countAnswered('counted');
    metrics.countAnswered('running');
    metrics.countAnswered('remembered');
    const text = (await scrape(metrics)).ctx.body as string;
    expect(lines(text, 'bcat_count_answers_total')).to.have.members([
      'bcat_count_answers_total{from="remembered"} 1', 'bcat_count_answers_total{from="running"} 1', 'bcat_count_answers_total{from="counted"} 2',
    ]);
  });

  it('lets any other request go on: another path, another method', async () => {
    for (const [method, url] of [['GET', '/metricsx'], ['POST', '/metrics'], ['GET', '/api/public/v1/metrics']]) {
      expect((await scrape(metrics, method, url)).passed, `${method} ${url}`).to.equal(true);
    }
  });

  it('counts answered requests and their durations by method, route pattern and status, never by raw path', async () => {
    const route = '/api/public/v1/brands/:brand/products/:id';
    for (const [brand, status] of [['acme', 200], ['globex', 200], ['acme', 404]] as const) {
      const ctx = contextOf('GET', `/api/public/v1/brands/${brand}/products/1`, route);
      ctx.status = status;
      metrics.record(ctx, 0.004);
    }
    const stray = contextOf('GET', '/nowhere/at/all');
    stray.status = 404;
    metrics.record(stray, 0.2);
    const text = (await scrape(metrics)).ctx.body as string;
    expect(lines(text, 'bcat_http_requests_total')).to.include.members([
      `bcat_http_requests_total{method="GET",route="${route}",status="200"} 2`,
      `bcat_http_requests_total{method="GET",route="${route}",status="404"} 1`,
      'bcat_http_requests_total{method="GET",route="unmatched",status="404"} 1',
    ]);
    expect(lines(text, 'bcat_http_request_duration_seconds_count')).to.include(`bcat_http_request_duration_seconds_count{method="GET",route="${route}"} 3`);
    expect(lines(text, 'bcat_http_request_duration_seconds_bucket')).to.include(`bcat_http_request_duration_seconds_bucket{le="0.005",method="GET",route="${route}"} 3`);
    expect(text).to.not.contain('acme').and.not.contain('/nowhere');
  });

  it('keeps each instance\'s series in a registry of its own', async () => {
    const { db } = await testDatabase();
    const other = createMetrics({ db, reads });
    const text = (await scrape(other)).ctx.body as string;
    expect(lines(text, 'bcat_http_requests_total')).to.deep.equal([]);
    expect(lines(text, 'bcat_live_waiting_requests')).to.deep.equal(['bcat_live_waiting_requests 0']);
  });
});
