import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { stopTracing, startTracing } from '../../../src/server/tracing/start-tracing.ts';
import { collectingLogger } from '../../support/collecting-logger.ts';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.ts';
import { useServer } from '../../support/use-server.ts';
import { waitFor } from '../../support/wait-for.ts';

const SETTINGS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_BSP_SCHEDULE_DELAY', 'OTEL_SERVICE_NAME'] as const;

/** A caller's W3C trace context: fresh ids, sampled. */
function callerContext(): { traceId: string; parentId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, traceparent: `00-${traceId}-${parentId}-01` };
}

describe('OpenTelemetry tracing: spans exported over OTLP/HTTP to a receiver of the test\'s own', function () {
  // Its first hook may open the run's database (the embedded one migrates in memory): slow on a loaded machine.
  this.timeout(90_000);
  let receiver: OtlpReceiver;
  const saved: Partial<Record<(typeof SETTINGS)[number], string | undefined>> = {};

  before(async () => {
    receiver = await startOtlpReceiver();
    for (const name of SETTINGS) saved[name] = process.env[name];
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_SERVICE_NAME: 'bcat-trace-test',
    });
    try {
      expect(await startTracing({ logger: collectingLogger().logger })).to.not.equal(null);
    } finally {
      for (const name of SETTINGS) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });
  // Built after tracing started, as main.ts does; on REDIS_URL when set, so the rate limit's calls are spans too.
  const server = useServer();
  after(async () => {
    await stopTracing();
    await receiver?.close();
  });

  const spansOf = async (traceId: string, until: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> => {
    let spans: ReceivedSpan[] = [];
    await waitFor(async () => until(spans = receiver.spans.filter((span) => span.traceId === traceId)), { timeoutMs: 10_000, what: 'the spans to arrive' });
    return spans;
  };

  it('continues the caller\'s trace: a SERVER span per request named by its route, with SQL spans by family and operation, and no value', async () => {
    const { brand, key, keyId } = await resetToBrand();
    const [product] = await insert('products', brand.id, [{ code: 'TRACE-CODE-1', name: 'Traced parka', status: 'active' }]);
    await insert('skus', brand.id, [{ productId: product!.id, code: 'TRACE-SKU-1' }]);
    const caller = callerContext();

    const response = await server.request(`/brands/acme/products/${product!.id}?include=skus`, { key, headers: { traceparent: caller.traceparent, tracestate: 'vendor=1' } });
    expect(response.status).to.equal(200);

    const spans = await spansOf(caller.traceId, (found) => found.some((span) => span.kind === 2));
    const request = spans.find((span) => span.kind === 2)!;
    expect(request.parentSpanId).to.equal(caller.parentId);
    expect(request.service).to.equal('bcat-trace-test');
    expect(request.name).to.equal('GET /api/public/v1/brands/:brand/products/:id');
    expect(request.attributes).to.include({
      'http.route': '/api/public/v1/brands/:brand/products/:id',
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'bcat.brand': 'acme',
      'bcat.family': 'products',
      'bcat.key_id': keyId,
    });

    const queries = spans.filter((span) => span.kind === 3 && span.attributes['db.system.name'] === 'postgresql');
    expect(queries.map((span) => span.name)).to.include.members(['products one', 'skus include']);
    for (const query of queries) expect(query.parentSpanId).to.equal(request.spanId);
    expect(queries.find((span) => span.name === 'products one')!.attributes).to.include({
      'db.operation.name': 'one',
      'db.collection.name': 'products',
      'bcat.family': 'products',
    });

    // No bound value and no secret anywhere in what was exported: not the id, the brand's id, a code, the key.
    const exported = receiver.bodies.join('\n');
    for (const value of [product!.id, brand.id, 'TRACE-CODE-1', 'TRACE-SKU-1', key, key.slice('bcat_sk_'.length)]) {
      expect(exported).to.not.include(value);
    }
  });

  it('names a list\'s page and count, and a refused request\'s span has its status and no key', async () => {
    const { key } = await resetToBrand();
    const list = callerContext();
    expect((await server.request('/brands/acme/products?status=active&limit=2', { key, headers: { traceparent: list.traceparent } })).status).to.equal(200);
    const listed = await spansOf(list.traceId, (found) => found.some((span) => span.kind === 2));
    expect(listed.map((span) => span.name)).to.include.members(['products page', 'products count']);

    const refused = callerContext();
    expect((await server.request('/brands/acme/products', { key: 'bcat_sk_not-a-key', headers: { traceparent: refused.traceparent } })).status).to.equal(401);
    const span = (await spansOf(refused.traceId, (found) => found.some((one) => one.kind === 2))).find((one) => one.kind === 2);
    expect(span!.attributes['http.response.status_code']).to.equal(401);
    expect(span!.attributes).to.not.have.property('bcat.key_id');
    expect(receiver.bodies.join('\n')).to.not.include('not-a-key');
  });

  it('writes the trace and span id of the request into its log line', async () => {
    const { key } = await resetToBrand();
    const caller = callerContext();
    const requestId = `trace-${caller.traceId}`;
    expect((await server.request('/brands/acme/products', { key, headers: { traceparent: caller.traceparent, 'X-Request-Id': requestId } })).status).to.equal(200);
    const request = (await spansOf(caller.traceId, (found) => found.some((span) => span.kind === 2))).find((span) => span.kind === 2);
    const line = server.logs.find((entry) => entry.msg === 'request' && entry.requestId === requestId);
    expect(line).to.include({ traceId: caller.traceId, spanId: request!.spanId });
  });

  it('starts a trace of its own when the caller sends none, or a traceparent that is not valid', async () => {
    const { key } = await resetToBrand();
    const before = receiver.spans.length;
    const requestId = `untraced-${randomBytes(4).toString('hex')}`;
    await server.request('/brands/acme/products', { key, headers: { traceparent: '00-zz-nope-01', 'X-Request-Id': requestId } });
    await waitFor(async () => receiver.spans.slice(before).some((span) => span.attributes['bcat.request_id'] === requestId), { timeoutMs: 10_000, what: 'the span' });
    const span = receiver.spans.slice(before).find((one) => one.attributes['bcat.request_id'] === requestId)!;
    expect(span.traceId).to.match(/^[0-9a-f]{32}$/);
    expect(span.parentSpanId).to.equal('');
  });

  // On the run's Redis (REDIS_URL, the Postgres run of CI); without it the limits count in process and call no Redis.
  if (process.env.REDIS_URL) it('makes the rate limit\'s call to Redis a CLIENT span of the request', async () => {
    const { key } = await resetToBrand();
    const caller = callerContext();
    expect((await server.request('/brands/acme/products', { key, headers: { traceparent: caller.traceparent } })).status).to.equal(200);
    const spans = await spansOf(caller.traceId, (found) => found.some((span) => span.kind === 2) && found.some((span) => span.attributes['db.system.name'] === 'redis'));
    const request = spans.find((span) => span.kind === 2)!;
    const redis = spans.find((span) => span.attributes['db.system.name'] === 'redis')!;
    expect(redis).to.include({ name: 'redis rate-limit increment', kind: 3, parentSpanId: request.spanId });
    expect(redis.attributes['bcat.rate_limit.requests']).to.equal(1);
  });
});
