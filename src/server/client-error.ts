import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CODES, type ErrorCode } from '../engine/request/api-error.ts';
import type { Logger } from './logger.ts';
import { SECURITY_HEADERS } from './middleware/security-headers.ts';

/**
 * What Node's HTTP server would answer by itself, before the app sees a
 * request, answered with the contract's error body instead of a bare status
 * line or a closed connection (CONTRACT.md §4: every 4xx has it). There is no
 * Koa context here, so the answer is written on the socket (or the bare
 * response); it has the shape `write-error.ts` gives every other error.
 *
 * The contract's codes name no status of a request HTTP cannot read, so
 * those are `invalid_parameter` (a request the client must change before
 * sending it again), with `details` naming `request` and saying what to
 * change; Node's statuses are kept: 431 past the header limit, 408 for
 * headers that came too late, 400 for the rest. A CONNECT (a proxy tunnel,
 * which Node would drop without a word) names no path of the API: 404.
 */
export type Refusal = 'malformed' | 'headers-too-large' | 'headers-too-slow' | 'no-host' | 'connect';

/** The limits the messages quote. */
export interface ClientErrorLimits {
  readonly maxHeaderBytes: number;
  readonly headersTimeoutMs: number;
}

interface RefusalRule {
  readonly status: number;
  readonly reason: string;
  readonly errorCode: ErrorCode;
  /** What to change, as the `details` of an `invalid_parameter`; null for none. */
  readonly message: ((limits: ClientErrorLimits) => string) | null;
}

const REFUSALS: Readonly<Record<Refusal, RefusalRule>> = Object.freeze({
  malformed: {
    status: 400,
    reason: 'Bad Request',
    errorCode: 'invalid_parameter',
    message: () => 'the request is not valid HTTP/1.1: a malformed request line or header, or a character a URL or header may not hold raw (percent-encode it)',
  },
  'headers-too-large': {
    status: 431,
    reason: 'Request Header Fields Too Large',
    errorCode: 'invalid_parameter',
    message: ({ maxHeaderBytes }) => `the request line and headers exceed ${maxHeaderBytes} bytes: shorten the URL (fewer or shorter parameters) or the headers`,
  },
  'headers-too-slow': {
    status: 408,
    reason: 'Request Timeout',
    errorCode: 'invalid_parameter',
    message: ({ headersTimeoutMs }) => `the request line and headers did not arrive within ${headersTimeoutMs / 1000} s`,
  },
  'no-host': {
    status: 400,
    reason: 'Bad Request',
    errorCode: 'invalid_parameter',
    message: () => 'an HTTP/1.1 request must carry a Host header',
  },
  connect: { status: 404, reason: 'Not Found', errorCode: 'not_found', message: null },
});

/** Node's parser errors by code; any other is a malformed request. */
const BY_PARSER_CODE: Readonly<Record<string, Refusal>> = Object.freeze({
  HPE_HEADER_OVERFLOW: 'headers-too-large',
  ERR_HTTP_REQUEST_TIMEOUT: 'headers-too-slow',
});

/** The refusal for an error Node's parser raised. */
export const refusalOf = (code: string | undefined): Refusal =>
  (code !== undefined && Object.hasOwn(BY_PARSER_CODE, code) ? BY_PARSER_CODE[code] : undefined) ?? 'malformed';

/** One complete answer: status, reason, headers and the contract's error body. */
export function refusalAnswer({ refusal, limits, requestId }: { refusal: Refusal; limits: ClientErrorLimits; requestId: string }) {
  const rule = REFUSALS[refusal];
  const body = Buffer.from(JSON.stringify({
    error: refusal === 'connect' ? 'This API is no proxy: CONNECT names no path of it.' : ERROR_CODES[rule.errorCode].message,
    errorCode: rule.errorCode,
    ...(rule.message ? { details: [{ parameter: 'request', message: rule.message(limits) }] } : {}),
  }));
  const headers: (readonly [string, string])[] = [
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Content-Length', String(body.length)],
    ['Cache-Control', 'no-store'],
    ['X-Request-Id', requestId],
    ...SECURITY_HEADERS,
    ['Connection', 'close'],
  ];
  return { status: rule.status, reason: rule.reason, headers, body };
}

/** The bytes of an answer, for a socket the HTTP server has let go of. */
export function refusalBytes(answer: ReturnType<typeof refusalAnswer>): Buffer {
  const head = `HTTP/1.1 ${answer.status} ${answer.reason}\r\n${answer.headers.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), answer.body]);
}

/** Writes the answer on a raw socket and closes it once the answer is out. */
function refuseOnSocket({ socket, refusal, limits, logger, code }: { socket: Duplex; refusal: Refusal; limits: ClientErrorLimits; logger: Logger; code: string | null }): void {
  const requestId = randomUUID();
  const answer = refusalAnswer({ refusal, limits, requestId });
  logger.info({ requestId, status: answer.status, code }, 'request refused before the app');
  socket.end(refusalBytes(answer), () => socket.destroy());
}

/**
 * The `clientError` listener: answers as Node would have, when Node would
 * have (the socket still writable and no answer to an earlier request of the
 * connection begun), then closes the connection.
 */
export function answerClientError({ limits, logger }: { limits: ClientErrorLimits; logger: Logger }) {
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
      socket.destroy();
      return;
    }
    refuseOnSocket({ socket, refusal: refusalOf(error.code), limits, logger, code: error.code ?? null });
  };
}

/** The `connect` listener: a CONNECT gets a 404, where Node would close the connection without a word. */
export function answerConnect({ limits, logger }: { limits: ClientErrorLimits; logger: Logger }) {
  return (_request: IncomingMessage, socket: Duplex): void => refuseOnSocket({ socket, refusal: 'connect', limits, logger, code: null });
}

/** An HTTP/1.1 request without `Host` (RFC 9112 §3.2: a 400), refused with the contract's body where Node's own check sends none. */
export function refuseWithoutHost({ response, limits }: { response: ServerResponse; limits: ClientErrorLimits }): void {
  const answer = refusalAnswer({ refusal: 'no-host', limits, requestId: randomUUID() });
  response.writeHead(answer.status, answer.reason, answer.headers.flat());
  response.end(answer.body);
}
