import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type Koa from 'koa';
import { answerClientError, answerConnect, refuseWithoutHost } from './client-error.ts';
import type { Logger } from './logger.ts';

/**
 * Limits on what a client may send. The request line and headers together
 * (a long URL included) may take 16 KiB; past that the answer is 431. That
 * is the one limit on headers: their count is not limited apart (Node's
 * `maxHeadersCount` is 0), because Node 20 drops the fields past its count
 * without a word (an Authorization sent late would be lost) and Node 22 and
 * 24 refuse them with the same 431 as an oversized request, which then
 * quotes the wrong limit; 16 KiB bounds the count anyway. A
 * client has 10 s to send its headers and 30 s for the whole request, so slow
 * clients cannot hold sockets open. GET requests carry no body, and none is
 * ever read.
 */
export const HTTP_LIMITS = Object.freeze({ maxHeaderBytes: 16 * 1024, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 });

/**
 * The HTTP server of the app, with those limits, and the contract's error
 * body on what Node would answer by itself before the app sees a request
 * (`client-error.ts`): what its parser refuses, a CONNECT, an HTTP/1.1
 * request without `Host` (Node's own check answers it with no body, so it
 * is made here). An `Expect` other than `100-continue` is ignored, as RFC
 * 9110 allows (a GET has no body to wait for), where Node would answer 417
 * with no body. It does not listen: `main.ts` and the tests do.
 */
export function createHttpServer({ app, logger }: { app: Koa; logger: Logger }): Server {
  const handle = app.callback();
  const serve = (request: IncomingMessage, response: ServerResponse): void => {
    if (request.httpVersion === '1.1' && request.headers.host === undefined) refuseWithoutHost({ response, limits: HTTP_LIMITS });
    else void handle(request, response);
  };
  const server = createServer({ maxHeaderSize: HTTP_LIMITS.maxHeaderBytes, requireHostHeader: false }, serve);
  server.maxHeadersCount = 0;
  server.headersTimeout = HTTP_LIMITS.headersTimeoutMs;
  server.requestTimeout = HTTP_LIMITS.requestTimeoutMs;
  server.on('clientError', answerClientError({ limits: HTTP_LIMITS, logger }));
  server.on('connect', answerConnect({ limits: HTTP_LIMITS, logger }));
  server.on('checkExpectation', serve);
  return server;
}
