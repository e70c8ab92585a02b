import { Agent, request } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** A response read whole: status, headers and the parsed JSON body (or null). */
export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
  readonly text: string;
}

/**
 * The HTTP client of the tests that ask a server over a socket. Node's own
 * client on kept-alive connections rather than fetch: the suite sends some
 * hundred thousand requests, and fetch (undici's WHATWG streams, abort
 * signals) took about two and a half times the CPU of `http.request` for
 * the same answers, a tenth of the matrices' CPU.
 *
 * Unless the test names a coding, it asks for the answer as it is
 * (`Accept-Encoding: identity`): fetch asks for gzip, so every answer over
 * 1 KiB was compressed by the server and inflated here, work no test
 * checked but the compression tests, which name the coding they ask for.
 * An answer in a coding is decoded as fetch would, so `text` and `body` are
 * the bytes the server compressed.
 */
const agent = new Agent({ keepAlive: true });

export interface SendOptions {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export async function sendRequest(url: string, { method = 'GET', headers = {} }: SendOptions = {}): Promise<TestResponse> {
  const asked = Object.keys(headers).some((name) => name.toLowerCase() === 'accept-encoding') ? headers : { 'Accept-Encoding': 'identity', ...headers };
  try {
    return await sendOnce(url, method, asked);
  } catch (error) {
    // A kept-alive connection the server closed as idle just as this request went out on it (the server's
    // keep-alive timeout and the client's own race on a busy machine): sent again once on a new connection, as an
    // HTTP client does with a request that has no side effects. Anything else, or a second failure, fails.
    if (!isIdempotent(method) || !closedBeforeAnswer(error)) throw error;
    return sendOnce(url, method, asked);
  }
}

function sendOnce(url: string, method: string, headers: Readonly<Record<string, string>>): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        try {
          const received = new Headers();
          const raw = response.rawHeaders;
          for (let i = 0; i < raw.length; i += 2) received.append(raw[i]!, raw[i + 1]!);
          const text = decoded(Buffer.concat(chunks), received.get('content-encoding')).toString('utf8');
          resolve({ status: response.statusCode!, headers: received, body: parsed(text), text });
        } catch (error) {
          reject(error);
        }
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** The body as the server had it before its coding (none, gzip, Brotli or deflate). */
function decoded(bytes: Buffer, coding: string | null): Buffer {
  if (bytes.length === 0 || coding === null || coding === 'identity') return bytes;
  if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(bytes);
  if (coding === 'br') return brotliDecompressSync(bytes);
  if (coding === 'deflate') return inflateSync(bytes);
  throw new Error(`an answer in a coding the test client does not read: ${coding}`);
}

function parsed(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function isIdempotent(method: string): boolean {
  return ['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}

/** A kept-alive connection that closed before any answer came (a reset, or closed with nothing sent back). */
function closedBeforeAnswer(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}
