import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from './logger.ts';

/** How long in-flight requests get to finish on SIGTERM before the process exits anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** The response a connection is answering: its last request's, kept on the socket itself. */
const ANSWERING = Symbol('response being answered');
type Connection = Socket & { [ANSWERING]?: ServerResponse };

/**
 * Returns `stop(signal)`: the server stops taking connections, requests in
 * flight get `graceMs` to finish, then `release` runs and the process exits
 * (0, or 1 when the grace period ran out). Only the first call does anything.
 *
 * While stopping, every response closes its connection, so keep-alive does
 * not hold the exit back: those that arrive after the signal, and those in
 * flight when it came (found through their connections).
 *
 * Connections are tracked, not requests: a set that took in and let go of
 * every response kept each one's objects alive through the collections of
 * V8's young generation, and most of a get's garbage with them
 * (docs/PERFORMANCE.md, "The garbage collector"). Each connection instead
 * points at the response it is answering, replaced by its next request's.
 * Of pipelined requests only the last is pointed at: its `Connection: close`
 * ends the connection after the ones before it.
 */
export function gracefulStop({ server, logger, release, graceMs = SHUTDOWN_GRACE_MS, exit = (code) => process.exit(code) }: {
  server: Server;
  logger: Logger;
  release: () => Promise<void>;
  graceMs?: number;
  exit?: (code: number) => void;
}): (signal: string) => void {
  let stopping = false;
  const connections = new Set<Connection>();
  // A response answered while stopping leaves its connection idle, or closed: idle ones are closed then.
  const closeIdleAfter = (response: ServerResponse): void => {
    response.once('close', () => setImmediate(() => server.closeIdleConnections()));
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (stopping) {
      response.setHeader('Connection', 'close');
      closeIdleAfter(response);
      return;
    }
    const connection = request.socket as Connection;
    if (connection[ANSWERING] === undefined) {
      connections.add(connection);
      connection.once('close', () => connections.delete(connection));
    }
    connection[ANSWERING] = response;
  });
  return (signal) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.warn('requests still running after the grace period: exiting anyway');
      void release().finally(() => exit(1));
    }, graceMs).unref();
    for (const connection of connections) {
      const response = connection[ANSWERING];
      if (response === undefined) continue;
      if (!response.headersSent) response.setHeader('Connection', 'close');
      // Also for one just answered: its connection may turn idle only after the call below.
      closeIdleAfter(response);
    }
    server.close(() => {
      void release().then(() => exit(0));
    });
    server.closeIdleConnections();
  };
}
