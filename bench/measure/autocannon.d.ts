/**
 * The part of autocannon 9's programmatic API the bench uses (the package
 * ships no types). Latencies are in milliseconds.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Request {
    method?: string;
    path: string;
    headers?: Record<string, string>;
  }

  interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    headers?: Record<string, string>;
    requests?: Request[];
    /** Requests in all, after which the run ends; the duration is then ignored. */
    amount?: number;
    /** Milliseconds between samples, when the run also looks whether to stop (default 1,000). */
    sampleInt?: number;
    /** Seconds a request may take before it counts as a timeout (an error). */
    timeout?: number;
  }

  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }

  interface Result {
    /** Seconds the run lasted. */
    duration: number;
    /** Connection errors, timeouts included. */
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: Histogram & { sent: number };
    latency: Histogram;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** Emits `response` (client, statusCode, bytes, responseTimeMs) for every response. */
  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
