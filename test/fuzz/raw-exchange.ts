import { connect } from 'node:net';
import { ANSWER_MS } from './fuzz-http.ts';

/**
 * One HTTP/1.1 exchange over a bare socket, for what Node's HTTP client will
 * not send (a 1 MB request line, thousands of headers, raw bytes above 0x7F
 * in a URL): the request goes out byte for byte, and whatever comes back is
 * recorded, including nothing at all. Bounded by ANSWER_MS.
 */
export interface Exchange {
  /** The status of the response, or null when none arrived. */
  readonly status: number | null;
  readonly head: string;
  readonly body: string;
  /** Whether the server closed the connection. */
  readonly closed: boolean;
  /** A socket error seen on the client side (EPIPE, ECONNRESET while the request was still going out), if any. */
  readonly error: string | null;
  readonly ms: number;
  readonly timedOut: boolean;
}

export function requestBytes({ target, headers = [] }: { target: string; headers?: readonly (readonly [string, string])[] }): Buffer {
  const lines = [`GET ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headers.map(([name, value]) => `${name}: ${value}`)];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

export function exchange(origin: string, bytes: Buffer): Promise<Exchange> {
  const { hostname, port } = new URL(origin);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | null = null;
    let settled = false;
    const finish = (closed: boolean, timedOut: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = split < 0 ? text : text.slice(0, split);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      resolve({
        status: status ? Number(status[1]) : null,
        head,
        body: split < 0 ? '' : text.slice(split + 4),
        closed,
        error,
        ms: Date.now() - started,
        timedOut,
      });
    };
    const timer = setTimeout(() => finish(false, true), ANSWER_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => finish(true, false));
    socket.write(bytes);
  });
}

/** One line for the log: what the server did with a request. */
export function summarize(what: string, result: Exchange): string {
  const answer = result.status === null ? 'no response' : result.head.split('\r\n')[0];
  const body = result.body === '' ? 'no body' : `body ${JSON.stringify(result.body.slice(0, 120))}`;
  return `${what}: ${answer}, ${body}, ${result.closed ? 'connection closed' : 'connection open'}${result.error ? `, client saw ${result.error}` : ''}${result.timedOut ? ', TIMED OUT' : ''} (${result.ms} ms)`;
}
