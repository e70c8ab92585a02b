import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from './logger.ts';

/** How long in-flight requests get to finish on SIGTERM before the process exits anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Returns `stop(signal)`: the server stops taking connections, requests in
 * flight get `graceMs` to finish, then `release` runs and the process exits
 * (0, or 1 when the grace period ran out). Only the first call does anything.
 *
 * While stopping, every response closes its connection, so keep-alive does
 * not hold the exit back: those that arrive after the signal, and those in
 * flight when it came (tracked from now until they finish).
 */
export function gracefulStop({ server, logger, release, graceMs = SHUTDOWN_GRACE_MS, exit = (code) => process.exit(code) }: {
  server: Server;
  logger: Logger;
  release: () => Promise<void>;
  graceMs?: number;
  exit?: (code: number) => void;
}): (signal: string) => void {
  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (stopping) response.setHeader('Connection', 'close');
    inFlight.add(response);
    response.once('close', () => {
      inFlight.delete(response);
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  });
  return (signal) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.warn('requests still running after the grace period: exiting anyway');
      void release().finally(() => exit(1));
    }, graceMs).unref();
    for (const response of inFlight) if (!response.headersSent) response.setHeader('Connection', 'close');
    server.close(() => {
      void release().then(() => exit(0));
    });
    server.closeIdleConnections();
  };
}
