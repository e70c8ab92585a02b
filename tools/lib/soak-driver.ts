import { Agent, request as httpRequest } from 'node:http';
import type { SoakMix, SoakRequest } from './soak-mix.ts';

/** One answer (or failure) as the driver saw it. */
export interface SoakOutcome {
  readonly request: SoakRequest;
  /** The status, or null when no answer came (connection error, timeout). */
  readonly status: number | null;
  readonly latencyMs: number;
  /** Why there was no answer. */
  readonly error: string | null;
}

export interface DriverResult {
  readonly sent: number;
  /** Sends skipped because too many requests were already waiting: the server fell behind the rate. */
  readonly skipped: number;
  /** Requests still unanswered when the drain time ran out (counted as errors by the caller). */
  readonly abandoned: number;
}

/** Seconds a request may take before it counts as a timeout. */
export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Sends `rate` requests a second for `durationMs`, paced against the clock
 * (request i leaves at start + i/rate, so a slow answer does not slow the
 * schedule: latency includes any wait for a free connection), over at most
 * `connections` keep-alive sockets to 127.0.0.1. When more than
 * 8 × connections are waiting, a send is skipped and counted instead of
 * queued without bound. Stops by itself: after the duration it waits up to
 * `drainMs` for answers in flight, then abandons them.
 */
export async function driveSoak({ origin, mix, rate, durationMs, connections, onOutcome, signal, drainMs = REQUEST_TIMEOUT_MS + 2000 }: {
  origin: string;
  mix: SoakMix;
  rate: number;
  durationMs: number;
  connections: number;
  onOutcome(outcome: SoakOutcome): void;
  signal?: AbortSignal;
  drainMs?: number;
}): Promise<DriverResult> {
  const url = new URL(origin);
  if (url.hostname !== '127.0.0.1') throw new Error(`the soak only targets 127.0.0.1, not ${url.hostname}`);
  // FIFO keeps every socket in use at a steady rate: with LIFO the spare ones idle into the server's
  // 5 s keep-alive timeout, and a request sent on one just as the server closes it dies with ECONNRESET.
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections, scheduling: 'fifo' });
  const maxWaiting = connections * 8;
  const total = Math.round((rate * durationMs) / 1000);
  let sent = 0;
  let skipped = 0;
  let inFlight = 0;
  let done = false;
  const start = performance.now();

  const send = (request: SoakRequest): void => {
    inFlight += 1;
    const began = performance.now();
    let settled = false;
    const finish = (status: number | null, error: string | null): void => {
      if (settled) return;
      settled = true;
      inFlight -= 1;
      if (!done) onOutcome({ request, status, latencyMs: performance.now() - began, error });
    };
    const req = httpRequest({
      agent,
      host: '127.0.0.1',
      port: Number(url.port),
      path: request.path,
      method: 'GET',
      headers: { Authorization: `Bearer ${request.key.key}`, ...request.headers },
      timeout: REQUEST_TIMEOUT_MS,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const etag = typeof res.headers.etag === 'string' ? res.headers.etag : null;
        mix.learn(request, { status, etag, body: status === 200 ? Buffer.concat(chunks).toString() : '' });
        finish(status, null);
      });
      res.on('error', (error) => finish(null, error.message));
    });
    req.on('timeout', () => {
      req.destroy(new Error('timeout'));
    });
    // Say when a failure hit a reused keep-alive socket: the client-side race above, not the server failing a request.
    req.on('error', (error) => finish(null, `${error.message}${req.reusedSocket ? ' (reused keep-alive socket)' : ''}`));
    req.end();
  };

  while (sent + skipped < total && !signal?.aborted) {
    const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
    while (sent + skipped < due) {
      if (inFlight >= maxWaiting) skipped += 1;
      else {
        sent += 1;
        send(mix.next());
      }
    }
    const nextAt = start + ((sent + skipped) * 1000) / rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, nextAt - performance.now())));
  }
  const drainUntil = performance.now() + drainMs;
  while (inFlight > 0 && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 20));
  const abandoned = inFlight;
  done = true; // what the destroy below cuts off is reported as abandoned, not as outcomes
  agent.destroy();
  return { sent, skipped, abandoned };
}
