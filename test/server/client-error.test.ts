import { connect } from 'node:net';
import { expect } from 'chai';
import { refusalAnswer, refusalBytes, refusalOf } from '../../src/server/client-error.ts';
import { HTTP_LIMITS } from '../../src/server/http-server.ts';
import { exchange, requestBytes, type Exchange } from '../fuzz/raw-exchange.ts';
import { expectErrorBody } from '../support/error-body.ts';
import { resetToBrand } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Issue 16, point 5: what Node's HTTP server answers by itself, before the
 * app sees a request (CONTRACT.md §4: every 4xx has the JSON error body),
 * gets the contract's body, with Node's status: 400 for a malformed request
 * or one without Host, 431 past the 16 KiB of request line and headers, 404
 * for a CONNECT. Before, a bare status line with no body, or for a CONNECT
 * a closed connection; an unknown Expect was a bare 417 and is now served.
 */
describe('answers to what the HTTP server refuses before the app', () => {
  const server = useServer();
  let key: string;
  const list = '/api/public/v1/brands/acme/carton-sizes';

  before(async () => {
    ({ key } = await resetToBrand());
  });

  function expectJsonRefusal(result: Exchange, status: number, what: string): void {
    expect(result.status, `${what}: ${result.head}`).to.equal(status);
    expect(result.head, what).to.match(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
    expect(result.head, what).to.match(/\r\nConnection: close(\r\n|$)/i);
    expect(result.head, what).to.match(/\r\nX-Request-Id: [0-9a-f-]{36}(\r\n|$)/i);
    expect(result.head, what).to.match(/\r\nX-Content-Type-Options: nosniff(\r\n|$)/i);
    const length = /\r\nContent-Length: (\d+)/i.exec(result.head);
    expect(Number(length?.[1]), `${what}: Content-Length`).to.equal(Buffer.byteLength(result.body, 'latin1'));
    const body = JSON.parse(Buffer.from(result.body, 'latin1').toString('utf8')) as Record<string, unknown>;
    expectErrorBody(body, 'invalid_parameter', { details: 'required' });
    expect(body.details).to.have.length(1);
    expect((body.details as { parameter: string }[])[0]!.parameter).to.equal('request');
  }

  const raw = (text: string): Buffer => Buffer.from(text, 'latin1');
  const malformed: { what: string; bytes: () => Buffer }[] = [
    { what: 'a request line with spaces in the target', bytes: () => raw(`GET ${list}/a b HTTP/1.1\r\nHost: x\r\n\r\n`) },
    { what: 'an HTTP version that does not exist', bytes: () => raw(`GET ${list} HTTP/9.9\r\nHost: x\r\n\r\n`) },
    { what: 'garbage for a request line', bytes: () => raw('\u0001\u0002\u0003 nonsense\r\n\r\n') },
    { what: 'a raw byte 0xE9 in the query', bytes: () => Buffer.concat([raw(`GET ${list}?name=`), Buffer.from([0xe9]), raw(' HTTP/1.1\r\nHost: x\r\n\r\n')]) },
    { what: 'a raw NUL in the query', bytes: () => raw(`GET ${list}?name=a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n`) },
    { what: 'a header line without a colon', bytes: () => raw(`GET ${list} HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n`) },
    { what: 'a space before a header name', bytes: () => raw(`GET ${list} HTTP/1.1\r\nHost : x\r\n\r\n`) },
  ];

  for (const { what, bytes } of malformed) {
    it(`answers ${what} with 400 and the contract's error body`, async () => {
      expectJsonRefusal(await exchange(server.origin, bytes()), 400, what);
    });
  }

  it('answers a request line or headers past 16 KiB with 431 and the contract\'s error body, saying what to shorten', async () => {
    const cases = [
      { what: 'a URL of 20 KB', bytes: requestBytes({ target: `${list}?name=${'a'.repeat(20_000)}` }) },
      { what: 'a header of 20 KB', bytes: requestBytes({ target: list, headers: [['X-Big', 'b'.repeat(20_000)]] }) },
      { what: '3,000 small headers', bytes: requestBytes({ target: list, headers: Array.from({ length: 3000 }, (_, i) => [`X-H${i}`, 'v'] as const) }) },
    ];
    for (const { what, bytes } of cases) {
      const result = await exchange(server.origin, bytes);
      expectJsonRefusal(result, 431, what);
      expect(result.body, what).to.contain(`exceed ${HTTP_LIMITS.maxHeaderBytes} bytes`);
    }
  });

  it('answers a malformed request that follows a good one on the same connection', async () => {
    const socket = connect(Number(new URL(server.origin).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    socket.write(raw(`GET ${list} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`));
    await waitFor(async () => Buffer.concat(chunks).toString('latin1').includes('"totalItems"'), { what: 'the first answer', intervalMs: 10 });
    socket.write(raw('GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n'));
    await waitFor(async () => closed, { what: 'the connection to close', intervalMs: 10 });
    const text = Buffer.concat(chunks).toString('latin1');
    const second = text.slice(text.indexOf('HTTP/1.1', 1));
    expect(second, text).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(second).to.contain('"errorCode":"invalid_parameter"');
  });

  it('keeps answering normal requests after refusals', async () => {
    const after = await server.request('/brands/acme/carton-sizes', { key });
    expect(after.status, after.text).to.equal(200);
  });

  it('answers an HTTP/1.1 request without Host with 400 and the contract\'s error body (HTTP/1.0 needs none)', async () => {
    const result = await exchange(server.origin, raw(`GET ${list} HTTP/1.1\r\nConnection: close\r\nAuthorization: Bearer ${key}\r\n\r\n`));
    expectJsonRefusal(result, 400, 'no Host');
    expect(result.body).to.contain('must carry a Host header');
    const old = await exchange(server.origin, raw(`GET ${list} HTTP/1.0\r\nAuthorization: Bearer ${key}\r\n\r\n`));
    expect(old.status, old.head).to.equal(200);
  });

  it('answers a CONNECT with 404 and the contract\'s error body, where Node would close the connection without a word', async () => {
    const result = await exchange(server.origin, raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    expect(result.status, result.head).to.equal(404);
    expect(result.head).to.match(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
    expectErrorBody(JSON.parse(result.body) as Record<string, unknown>, 'not_found', { details: 'forbidden' });
  });

  it('serves a request whose Expect it does not understand, where Node would answer a bare 417', async () => {
    const result = await exchange(server.origin, raw(`GET ${list} HTTP/1.1\r\nHost: x\r\nExpect: something\r\nConnection: close\r\nAuthorization: Bearer ${key}\r\n\r\n`));
    expect(result.status, result.head).to.equal(200);
    expect(JSON.parse(result.body)).to.have.property('items');
  });

  it('gives each refusal its status: 431 past the limit, 408 for headers too slow, 400 for the rest of the parser\'s errors', () => {
    const limits = { maxHeaderBytes: 16_384, headersTimeoutMs: 10_000 };
    const cases = [['HPE_HEADER_OVERFLOW', 431, 'Request Header Fields Too Large'], ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'Request Timeout'], ['HPE_INVALID_METHOD', 400, 'Bad Request'], [undefined, 400, 'Bad Request']] as const;
    for (const [code, status, reason] of cases) {
      const answer = refusalAnswer({ refusal: refusalOf(code), limits, requestId: 'r-1' });
      expect(answer.status, String(code)).to.equal(status);
      const text = refusalBytes(answer).toString('utf8');
      expect(text.startsWith(`HTTP/1.1 ${status} ${reason}\r\n`), text).to.equal(true);
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
      expectErrorBody(body, 'invalid_parameter', { details: 'required' });
    }
    expect(refusalAnswer({ refusal: 'headers-too-slow', limits, requestId: 'r' }).body.toString()).to.contain('within 10 s');
  });
});
