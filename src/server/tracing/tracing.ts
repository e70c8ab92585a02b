import type { Middleware } from 'koa';
import type { SqlFragment } from '../../engine/compile/sql-fragment.ts';

/** The exporters this server has: OTLP over HTTP, in protobuf (the standard's default) or JSON. */
export const TRACE_PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** One of `TRACE_PROTOCOLS`. */
export type TraceProtocol = (typeof TRACE_PROTOCOLS)[number];

/** The ids a log line carries while a request is traced. */
export interface TraceIds {
  readonly traceId: string;
  readonly spanId: string;
}

/**
 * The server's port on tracing. Off (the default) there is none: the app,
 * the database reads and the rate limiter are wired without it, and no
 * OpenTelemetry module is loaded. On (`OTEL_EXPORTER_OTLP_ENDPOINT`),
 * `start-tracing.ts` loads the OpenTelemetry implementation
 * (`open-telemetry-tracing.ts`) and makes it the active one.
 */
export interface Tracing {
  /** Koa middleware, outermost: a SERVER span per request that continues the caller's `traceparent`. */
  requestSpans(): Middleware;
  /** Runs one compiled statement in a CLIENT span named by its label (family and operation), never its values. */
  query<T>(plan: SqlFragment, run: () => Promise<T>): Promise<T>;
  /** Runs one rate-limit call to Redis in a CLIENT span (`rate-limit increment`, `rate-limit refund`). */
  redis<T>(operation: string, run: () => Promise<T>, attributes?: Readonly<Record<string, number>>): Promise<T>;
  /** The trace and span id of the request running now, for the log line; empty outside a traced request. */
  logFields(): Partial<TraceIds>;
  /** Ends tracing: exports what is waiting (within OTEL_BSP_EXPORT_TIMEOUT), then lets go. */
  shutdown(): Promise<void>;
}

let active: Tracing | null = null;

/** The tracing in force, or null when tracing is off: whoever is wired at start-up asks once. */
export function activeTracing(): Tracing | null {
  return active;
}

/** Makes `tracing` the one in force (null: off again). Only `start-tracing.ts` calls it. */
export function setActiveTracing(tracing: Tracing | null): void {
  active = tracing;
}
