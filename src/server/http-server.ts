import { createServer, type Server } from 'node:http';
import type Koa from 'koa';
import { answerClientError } from './client-error.ts';
import type { Logger } from './logger.ts';

/**
 * Limits on what a client may send. The request line and headers together
 * (a long URL included) may take 16 KiB; past that the answer is 431. A
 * client has 10 s to send its headers and 30 s for the whole request, so slow
 * clients cannot hold sockets open. GET requests carry no body, and none is
 * ever read.
 */
export const HTTP_LIMITS = Object.freeze({ maxHeaderBytes: 16 * 1024, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 });

/**
 * The HTTP server of the app, with those limits, and the contract's error
 * body on what Node's parser refuses before the app sees it (`client-error.ts`).
 * It does not listen: `main.ts` and the tests do.
 */
export function createHttpServer({ app, logger }: { app: Koa; logger: Logger }): Server {
  const server = createServer({ maxHeaderSize: HTTP_LIMITS.maxHeaderBytes }, app.callback());
  server.headersTimeout = HTTP_LIMITS.headersTimeoutMs;
  server.requestTimeout = HTTP_LIMITS.requestTimeoutMs;
  server.on('clientError', answerClientError({ limits: HTTP_LIMITS, logger }));
  return server;
}
