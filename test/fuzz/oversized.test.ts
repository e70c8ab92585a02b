import { expect } from 'chai';
import fc from 'fast-check';
import { useServer } from '../support/use-server.ts';
import { expectErrorBody } from './contract-checks.ts';
import { bearer, send } from './fuzz-http.ts';
import { fuzzIt } from './fuzz-run.ts';
import { fuzzData, listPath, type FuzzData } from './fuzz-world.ts';
import { exchange, requestBytes, summarize, type Exchange } from './raw-exchange.ts';

/**
 * Issue 7, item 2, (6): oversized requests and bytes the HTTP parser refuses.
 * Past its limits (16 KB of request line and headers) Node's HTTP server
 * refuses a request before the app sees anything; the requirement is a clean
 * 4xx with the contract's error body (issue 16: it was a bare status line;
 * src/server/client-error.ts), never a 500, never a hang, and a server that
 * still answers the next request. What the server did is printed, to be read
 * in the CI log.
 */
describe('fuzz: oversized requests', function () {
  this.timeout(180_000);
  let data: FuzzData;
  let list: string;
  const seen: string[] = [];

  before(async function () {
    this.timeout(180_000);
    data = await fuzzData();
    list = listPath(data.home.slug, data.families[0]!);
  });
  const server = useServer();
  after(() => {
    if (seen.length > 0) console.log(`  what the server did:\n${seen.map((line) => `    ${line}`).join('\n')}`);
  });

  /** A status line arrived in time, 400 or 431 with the contract's error body; and the server still answers a normal request. */
  async function expectCleanRefusal(what: string, result: Exchange): Promise<void> {
    expect(result.timedOut, `${summarize(what, result)}: hung`).to.equal(false);
    expect(result.status, `${summarize(what, result)}: closed without a response`).to.not.equal(null);
    expect(result.status!, summarize(what, result)).to.be.oneOf([400, 431]);
    expect(result.head, summarize(what, result)).to.match(/\r\nContent-Type: application\/json/i);
    expectErrorBody({ what: summarize(what, result), body: JSON.parse(result.body) as Record<string, unknown>, status: result.status!, codes: ['invalid_parameter'] });
    await expectStillAnswering(what);
  }

  async function expectStillAnswering(after: string): Promise<void> {
    const next = await send({ origin: server.origin, path: list, headers: bearer(data.key) });
    expect(next.status, `a normal request after ${after}: ${next.text.slice(0, 300)}`).to.equal(200);
  }

  const cases: { what: string; bytes: () => Buffer }[] = [
    { what: 'a URL of 64 KB', bytes: () => requestBytes({ target: `${list}?name=${'a'.repeat(64 * 1024)}`, headers: [['Authorization', `Bearer ${data.key}`]] }) },
    { what: 'a URL of 1 MB', bytes: () => requestBytes({ target: `${list}?name=${'a'.repeat(1024 * 1024)}`, headers: [['Authorization', `Bearer ${data.key}`]] }) },
    { what: 'a header of 64 KB', bytes: () => requestBytes({ target: list, headers: [['Authorization', `Bearer ${data.key}`], ['X-Fuzz', 'a'.repeat(64 * 1024)]] }) },
    { what: 'an Authorization header of 64 KB', bytes: () => requestBytes({ target: list, headers: [['Authorization', `Bearer ${'a'.repeat(64 * 1024)}`]] }) },
    {
      what: '5,000 headers (about 70 KB)',
      bytes: () => requestBytes({ target: list, headers: [['Authorization', `Bearer ${data.key}`], ...Array.from({ length: 5000 }, (_, i) => [`X-Fuzz-${i}`, 'v'] as const)] }),
    },
    { what: 'a raw byte 0xE9 in the query', bytes: () => Buffer.concat([Buffer.from(`GET ${list}?name=`, 'latin1'), Buffer.from([0xe9]), Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'latin1')]) },
    { what: 'a raw byte 0xE9 in the path', bytes: () => Buffer.concat([Buffer.from(`GET ${list}/`, 'latin1'), Buffer.from([0xe9]), Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'latin1')]) },
    { what: 'a raw NUL in the query', bytes: () => Buffer.from(`GET ${list}?name=a\u0000b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 'latin1') },
    { what: 'a raw DEL in the query', bytes: () => Buffer.from(`GET ${list}?name=a\u007fb HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 'latin1') },
    { what: 'a raw space in the path', bytes: () => Buffer.from(`GET ${list}/a b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 'latin1') },
  ];

  for (const c of cases) {
    it(`answers ${c.what} with a clean 4xx and keeps answering`, async () => {
      const result = await exchange(server.origin, c.bytes());
      seen.push(summarize(c.what, result));
      await expectCleanRefusal(c.what, result);
    });
  }

  it('answers requests just under the limits itself, with the contract\'s bodies', async () => {
    // 2,200 small headers and a 14 KB query stay under 16 KB: the app answers them, on every Node line (Node 22 and 24
    // refuse more than 1,000 header fields, and Node 20 drops them, unless the server lifts the count: http-server.ts).
    const headers = [['Authorization', `Bearer ${data.key}`] as const, ...Array.from({ length: 2200 }, () => ['a', 'b'] as const)];
    const many = await exchange(server.origin, requestBytes({ target: list, headers }));
    seen.push(summarize('2,200 small headers (about 13 KB)', many));
    expect(many.status, summarize('2,200 small headers', many)).to.equal(200);
    // And none of them is dropped: a key sent after 1,100 other fields still opens the list.
    const lateKey = await exchange(server.origin, requestBytes({ target: list, headers: [...headers.slice(1, 1101), headers[0]!] }));
    seen.push(summarize('the key after 1,100 small headers', lateKey));
    expect(lateKey.status, summarize('the key after 1,100 small headers', lateKey)).to.equal(200);

    const long = await exchange(server.origin, requestBytes({ target: `${list}?name=${'a'.repeat(14_000)}`, headers: [['Authorization', `Bearer ${data.key}`]] }));
    seen.push(summarize('a URL of 14 KB', long));
    expect(long.status, summarize('a URL of 14 KB', long)).to.equal(400);
    expectErrorBody({ what: 'a URL of 14 KB', body: JSON.parse(long.body) as Record<string, unknown>, status: 400, codes: ['invalid_parameter'] });
  });

  // Sizes between the limit and 1 MB, in each place a request can grow.
  fuzzIt('requests grown past the limit anywhere get a clean 4xx, and the server keeps answering', {
    numRuns: 20,
    build: () => ({
      arbitrary: fc.record({
        where: fc.constantFrom('path', 'query', 'header value', 'header name', 'header count'),
        size: fc.integer({ min: 17 * 1024, max: 1024 * 1024 }),
      }),
      predicate: async ({ where, size }) => {
        const auth = ['Authorization', `Bearer ${data.key}`] as const;
        const bytes = where === 'path' ? requestBytes({ target: `${list}/${'p'.repeat(size)}`, headers: [auth] })
          : where === 'query' ? requestBytes({ target: `${list}?name=${'q'.repeat(size)}`, headers: [auth] })
          : where === 'header value' ? requestBytes({ target: list, headers: [auth, ['X-Fuzz', 'v'.repeat(size)]] })
          : where === 'header name' ? requestBytes({ target: list, headers: [auth, [`X-${'n'.repeat(size)}`, 'v']] })
          // Node counts the bytes of names and values: at least 9 per header here.
          : requestBytes({ target: list, headers: [auth, ...Array.from({ length: Math.ceil(size / 8) }, (_, i) => [`X-Fuzz-${i}`, 'v'] as const)] });
        const what = `${size} bytes of ${where}`;
        await expectCleanRefusal(what, await exchange(server.origin, bytes));
      },
    }),
  });

  // Raw bytes (not escapes: invalid UTF-8, controls, NUL, DEL) wherever a request can hold them: Node refuses most before the app,
  // the app answers the rest; either way a status of the contract with its error body, and the server keeps answering.
  fuzzIt('raw bytes in the path, the query or a header get an answer of the contract, never a 5xx', {
    numRuns: 40,
    outcomes: ['400'],
    build: () => ({
      arbitrary: fc.record({
        where: fc.constantFrom('path', 'query', 'header value', 'authorization'),
        bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
      }),
      predicate: async ({ where, bytes }) => {
        const raw = Buffer.from(bytes);
        const head = (target: Buffer, header: Buffer = Buffer.from(`Bearer ${data.key}`)): Buffer => Buffer.concat([
          Buffer.from('GET '), target, Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: '), header, Buffer.from('\r\nX-Fuzz: v\r\n\r\n'),
        ]);
        const request = where === 'path' ? head(Buffer.concat([Buffer.from(`${list}/`), raw]))
          : where === 'query' ? head(Buffer.concat([Buffer.from(`${list}?name=`), raw]))
          : where === 'header value' ? Buffer.concat([Buffer.from(`GET ${list} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${data.key}\r\nX-Fuzz: `), raw, Buffer.from('\r\n\r\n')])
          : head(Buffer.from(list), Buffer.concat([Buffer.from('Bearer '), raw]));
        const what = `bytes ${raw.toString('hex')} in the ${where}`;
        const result = await exchange(server.origin, request);
        expect(result.timedOut, `${summarize(what, result)}: hung`).to.equal(false);
        expect(result.status, summarize(what, result)).to.be.oneOf([200, 400, 401, 404]);
        expect(result.head, summarize(what, result)).to.match(/\r\nContent-Type: application\/json/i);
        const body = JSON.parse(Buffer.from(result.body, 'latin1').toString('utf8')) as Record<string, unknown>;
        if (result.status !== 200) expectErrorBody({ what: summarize(what, result), body, status: result.status! });
        await expectStillAnswering(what);
        return String(result.status);
      },
    }),
  });
});
