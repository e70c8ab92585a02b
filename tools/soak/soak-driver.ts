import type { SoakMix } from './soak-mix.ts';
import { createSoakSender, REQUEST_TIMEOUT_MS, type SoakOutcome } from './soak-sender.ts';

export interface DriverResult {
  readonly sent: number;
  /** Sends skipped because too many requests were already waiting: the server fell behind the rate. */
  readonly skipped: number;
  /** Requests still unanswered when the drain time ran out (counted as errors by the caller). */
  readonly abandoned: number;
}

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
  const sender = createSoakSender({ port: Number(url.port), connections, mix, onOutcome });
  const maxWaiting = connections * 8;
  const total = Math.round((rate * durationMs) / 1000);
  let sent = 0;
  let skipped = 0;
  const start = performance.now();
  while (sent + skipped < total && !signal?.aborted) {
    const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
    while (sent + skipped < due) {
      if (sender.inFlight() >= maxWaiting) skipped += 1;
      else {
        sent += 1;
        sender.send(mix.next());
      }
    }
    const nextAt = start + ((sent + skipped) * 1000) / rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, nextAt - performance.now())));
  }
  const drainUntil = performance.now() + drainMs;
  while (sender.inFlight() > 0 && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 20));
  const abandoned = sender.inFlight();
  sender.close(); // what this cuts off is reported as abandoned, not as outcomes
  return { sent, skipped, abandoned };
}
