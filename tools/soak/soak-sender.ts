import { Agent, request as httpRequest } from 'node:http';
import type { SoakMix } from './soak-mix.ts';
import type { SoakRequest } from './soak-request.ts';

/** One answer (or failure) as the driver saw it. */
export interface SoakOutcome {
  readonly request: SoakRequest;
  /** The status, or null when no answer came (connection error, timeout). */
  readonly status: number | null;
  readonly latencyMs: number;
  /** Why there was no answer. */
  readonly error: string | null;
}

/** Seconds a request may take before it counts as a timeout. */
export const REQUEST_TIMEOUT_MS = 10_000;

export interface SoakSender {
  /** Sends one request; its outcome goes to `onOutcome`, and a 200's answer to the mix to learn from. */
  send(request: SoakRequest): void;
  /** Requests sent and not yet answered. */
  inFlight(): number;
  /** Closes the sockets; what that cuts off is not reported as outcomes. */
  close(): void;
}

/**
 * Sends over at most `connections` keep-alive sockets to 127.0.0.1:`port`,
 * each request with its key, timing out after REQUEST_TIMEOUT_MS.
 */
export function createSoakSender({ port, connections, mix, onOutcome }: {
  port: number;
  connections: number;
  mix: Pick<SoakMix, 'learn'>;
  onOutcome(outcome: SoakOutcome): void;
}): SoakSender {
  // FIFO keeps every socket in use at a steady rate: with LIFO the spare ones idle into the server's
  // 5 s keep-alive timeout, and a request sent on one just as the server closes it dies with ECONNRESET.
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections, scheduling: 'fifo' });
  let inFlight = 0;
  let done = false;
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
      port,
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
  return {
    send,
    inFlight: () => inFlight,
    close() {
      done = true;
      agent.destroy();
    },
  };
}
