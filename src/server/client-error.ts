import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { ERROR_CODES } from '../engine/request/api-error.ts';
import type { Logger } from './logger.ts';
import { SECURITY_HEADERS } from './middleware/security-headers.ts';

/**
 * What Node's HTTP server would answer by itself, before the app sees a
 * request (a request line or header it cannot parse, more than the header
 * limit, headers that do not arrive in time), answered with the contract's
 * error body instead of a bare status line (CONTRACT.md §4: every 4xx has
 * it). There is no Koa context here, so the body is written on the socket;
 * it has the shape `write-error.ts` gives every other error.
 *
 * The contract's codes name no status of these, so each is
 * `invalid_parameter` (a request the client must change before sending it
 * again), with `details` naming `request` and saying what to change. Node's
 * statuses are kept: 431 past the header limit, 408 for headers that came
 * too late, 400 for the rest.
 */

const ANSWERS: Readonly<Record<string, { readonly status: number; readonly reason: string; readonly message: (limits: ClientErrorLimits) => string }>> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    message: ({ maxHeaderBytes }) => `the request line and headers exceed ${maxHeaderBytes} bytes: shorten the URL (fewer or shorter parameters) or the headers`,
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    message: ({ headersTimeoutMs }) => `the request line and headers did not arrive within ${headersTimeoutMs / 1000} s`,
  },
};

const MALFORMED = {
  status: 400,
  reason: 'Bad Request',
  message: () => 'the request is not valid HTTP/1.1: a malformed request line or header, or a character a URL or header may not hold raw (percent-encode it)',
};

/** The limits the messages quote. */
export interface ClientErrorLimits {
  readonly maxHeaderBytes: number;
  readonly headersTimeoutMs: number;
}

/** The bytes of one complete HTTP/1.1 answer for a socket error of Node's HTTP parser. */
export function clientErrorResponse({ code, limits, requestId }: { code: string | undefined; limits: ClientErrorLimits; requestId: string }): { status: number; bytes: Buffer } {
  const answer = (code !== undefined && Object.hasOwn(ANSWERS, code) ? ANSWERS[code] : undefined) ?? MALFORMED;
  const body = Buffer.from(JSON.stringify({
    error: ERROR_CODES.invalid_parameter.message,
    errorCode: 'invalid_parameter',
    details: [{ parameter: 'request', message: answer.message(limits) }],
  }));
  const headers = [
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Content-Length', String(body.length)],
    ['Cache-Control', 'no-store'],
    ['X-Request-Id', requestId],
    ...SECURITY_HEADERS,
    ['Connection', 'close'],
  ];
  const head = `HTTP/1.1 ${answer.status} ${answer.reason}\r\n${headers.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n`;
  return { status: answer.status, bytes: Buffer.concat([Buffer.from(head, 'latin1'), body]) };
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
    const requestId = randomUUID();
    const { status, bytes } = clientErrorResponse({ code: error.code, limits, requestId });
    logger.info({ requestId, status, code: error.code ?? null }, 'request refused by the HTTP parser');
    socket.end(bytes, () => socket.destroy());
  };
}
