import type { Knex } from 'knex';
import type { Context, Middleware } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ReadReplicas } from '../db/connection/read-replicas.ts';
import type { CountAnswerSource } from '../db/counts/exact-counts.ts';
import { registerDatabaseMetrics } from './database-metrics.ts';

/**
 * Prometheus metrics at `GET /metrics` (text exposition, no key): requests by
 * route and status, their durations, the database pool, and the process's
 * own (memory, CPU, event loop lag, GC), where reads ran (the primary or
 * each replica, and whether each replica is in the turn), and where first
 * pages' totals and counts by value came from. Routes are labelled by the
 * router's pattern, never by the raw path, so the label set stays small
 * whatever clients send; brands and keys are never labels.
 */
export interface Metrics {
  /** Answers `GET /metrics`; any other request goes on. */
  readonly endpoint: Middleware;
  /** Counts an answered request and its duration, under the route the request matched. */
  record(ctx: Context, seconds: number): void;
  /** Counts a request's total or counts by value under where it came from (exact-counts.ts). */
  countAnswered(from: CountAnswerSource): void;
}

/**
 * How often the event loop's delay is sampled for `bcat_nodejs_eventloop_lag_*`.
 * prom-client's default, 10 ms, is a timer waking the process 100 times a
 * second: about 1 % of a core on an idle instance of the 2-core machine
 * (docs/PERFORMANCE.md, "Live changes"), against 0.1 % at 100 ms. A stall
 * long enough to matter (100 ms and more) is still seen.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/** The label a request is counted under: the router's pattern (`/api/public/v1/brands/:brand/products/:id`), never the raw path. */
const routeOf = (ctx: Context): string => (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';

export function createMetrics({ db, reads, waiting = () => 0 }: { db: Knex; reads: ReadReplicas; waiting?: () => number }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'bcat_', eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const seriesOf = requestSeries(registry);
  registerDatabaseMetrics({ registry, db, reads });
  new Gauge({
    name: 'bcat_live_waiting_requests',
    help: 'Changes calls waiting for a change on this instance (CONTRACT.md §7)',
    registers: [registry],
    collect() {
      this.set(waiting());
    },
  });
  const countAnswers = new Counter({
    name: 'bcat_count_answers_total',
    help: 'First pages\' totals and counts by value answered, by where the count came from: remembered (nothing of the brand written since), running (a count begun before the request, nothing written since it began) or counted (a count started for it).',
    labelNames: ['from'] as const,
    registers: [registry],
  });
  const answeredFrom = {
    remembered: countAnswers.labels({ from: 'remembered' }),
    running: countAnswers.labels({ from: 'running' }),
    counted: countAnswers.labels({ from: 'counted' }),
  } satisfies Record<CountAnswerSource, unknown>;
  // Each series from the start, at 0: a rate over a series that appears later misses its first answers.
  for (const series of Object.values(answeredFrom)) series.inc(0);
  return {
    endpoint: async (ctx, next) => {
      if (ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
      (ctx as { _matchedRoute?: string })._matchedRoute = '/metrics';
      ctx.set('Cache-Control', 'no-store');
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    },
    record(ctx, seconds) {
      const counted = seriesOf(ctx.method, routeOf(ctx), ctx.status);
      counted.count();
      counted.observe(seconds);
    },
    countAnswered(from) {
      answeredFrom[from].inc();
    },
  };
}

/** One label set's request count and duration histogram. */
interface RequestSeries {
  count(): void;
  observe(seconds: number): void;
}

/**
 * Registers the request count and durations, and returns the series of a
 * method, route and status. Each label set's series is found once:
 * prom-client hashes a label object on every call otherwise. The key space is
 * small and bounded (methods x route patterns x statuses).
 */
function requestSeries(registry: Registry): (method: string, route: string, status: number) => RequestSeries {
  const requests = new Counter({
    name: 'bcat_http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'bcat_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const series = new Map<string, RequestSeries>();
  return (method, route, status) => {
    const key = `${method} ${route} ${status}`;
    let found = series.get(key);
    if (!found) {
      const counted = requests.labels({ method, route, status: String(status) });
      const timed = durations.labels({ method, route });
      found = { count: () => counted.inc(), observe: (seconds) => timed.observe(seconds) };
      series.set(key, found);
    }
    return found;
  };
}
