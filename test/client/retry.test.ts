import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ApiError, createClient, NetworkError, type RetryNotice } from '../../client/src/index.ts';
import { parseRateLimit } from '../../client/src/retry.ts';
import { insert, resetToBrand } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { waitFor } from '../support/wait-for.ts';
import { requestsTo } from './use-client-api.ts';

/**
 * Retries against the real server's rate limit, and, for what the real
 * server cannot be made to do on cue (a 429 on every request, a dropped
 * connection, a 503), against a scripted HTTP server on a real socket.
 */

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('parseRateLimit', () => {
  it("reads what is left from the draft's structured RateLimit field, the first policy when there are several", () => {
    expect(parseRateLimit('"default";r=57;t=30')).to.deep.equal({ remaining: 57, resetSeconds: 30 });
    expect(parseRateLimit('"default"; t=0; r=0')).to.deep.equal({ remaining: 0, resetSeconds: 0 });
    expect(parseRateLimit('day;r=1;t=5, "hour";r=9;t=7')).to.deep.equal({ remaining: 1, resetSeconds: 5 });
  });

  it('is null when absent or not in that form', () => {
    for (const header of [null, '', '57', '"default";r=57', '"default";r=x;t=1', '"default";r=-1;t=1', 'RateLimit-Remaining: 5']) {
      expect(parseRateLimit(header), String(header)).to.equal(null);
    }
  });
});

describe('client: retries', function () {
  this.timeout(30_000);

  describe('on the real server', () => {
    let server: TestServer;
    let key: string;
    let brandId: string;

    async function freshBrand(): Promise<void> {
      ({ brand: { id: brandId }, key } = await resetToBrand('acme'));
    }

    afterEach(() => server.close());

    it('waits out a 429 as Retry-After says and goes on: the walk completes', async () => {
      server = await startTestServer({ rateLimitPoints: 2, rateLimitWindowSeconds: 1 });
      await freshBrand();
      const sizes = await insert('carton-sizes', brandId, [{ name: 'A' }, { name: 'B' }, { name: 'C' }, { name: 'D' }]);
      const notices: RetryNotice[] = [];
      const client = createClient({ baseUrl: server.origin, apiKey: key, brand: 'acme', maxRetries: 3, onRetry: (notice) => notices.push(notice) });
      const names = (await client.list('carton-sizes', { limit: 1 }).toArray()).map((size) => size.name);
      expect(names).to.deep.equal(sizes.map((size) => size.name));
      const statuses = requestsTo(server, '/brands/acme/carton-sizes').map((line) => line.status);
      expect(statuses).to.include(429);
      // Each 429 was followed by a wait of its Retry-After (whole seconds of a 1 s window: 0 or 1).
      expect(notices).to.have.length(statuses.filter((status) => status === 429).length);
      for (const notice of notices) {
        expect(notice).to.include({ reason: 'rate_limited', url: `${server.baseUrl}/brands/acme/carton-sizes` });
        expect([0, 1000]).to.include(notice.delayMs);
      }
      expect(statuses.filter((status) => status === 200)).to.have.length(4);
    });

    it('waits out a 429 in the middle of a changes batch and goes on from the same cursor: the batch completes', async () => {
      server = await startTestServer({ rateLimitPoints: 2, rateLimitWindowSeconds: 1 });
      await freshBrand();
      const sizes = await insert('carton-sizes', brandId, [{ name: 'A' }, { name: 'B' }, { name: 'C' }, { name: 'D' }]);
      const notices: RetryNotice[] = [];
      const client = createClient({ baseUrl: server.origin, apiKey: key, brand: 'acme', maxRetries: 3, onRetry: (notice) => notices.push(notice) });
      const batch = client['carton-sizes'].changes({ limit: 1 });
      const ids: string[] = [];
      for await (const item of batch) ids.push(item.id);
      expect(ids.sort()).to.deep.equal(sizes.map((size) => size.id as string).sort());
      expect(batch.syncToken).to.be.a('string');
      const statuses = requestsTo(server, '/brands/acme/carton-sizes/changes').map((line) => line.status);
      expect(statuses).to.include(429);
      expect(notices.map((notice) => notice.reason)).to.deep.equal(statuses.filter((status) => status === 429).map(() => 'rate_limited'));
      expect(statuses.filter((status) => status === 200)).to.have.length(4);
    });

    it('with maxRetries 0, a 429 is thrown as rate_limited with its Retry-After', async () => {
      server = await startTestServer({ rateLimitPoints: 1, rateLimitWindowSeconds: 60 });
      await freshBrand();
      const client = createClient({ baseUrl: server.origin, apiKey: key, brand: 'acme', maxRetries: 0 });
      await client.getBrand();
      const error = await rejection(client.getBrand());
      expect(error).to.be.instanceOf(ApiError);
      expect((error as ApiError).status).to.equal(429);
      expect((error as ApiError).errorCode).to.equal('rate_limited');
      expect((error as ApiError).retryAfterSeconds).to.be.a('number').within(1, 60);
      expect(requestsTo(server, '/brands/acme').map((line) => line.status)).to.deep.equal([200, 429]);
    });

    it('never retries another 4xx', async () => {
      server = await startTestServer();
      await freshBrand();
      const client = createClient({ baseUrl: server.origin, apiKey: key, brand: 'acme', maxRetries: 3 });
      const missing = '00000000-0000-4000-8000-000000000000';
      expect(await rejection(client.get('carton-sizes', missing))).to.have.property('errorCode', 'not_found');
      expect(await rejection(client.list('carton-sizes', { limit: 0 }).toArray())).to.have.property('errorCode', 'invalid_parameter');
      expect(requestsTo(server, `/brands/acme/carton-sizes/${missing}`)).to.have.length(1);
      expect(requestsTo(server, '/brands/acme/carton-sizes')).to.have.length(1);
    });
  });

  describe('on a scripted server', () => {
    let stub: Server;
    let origin: string;
    let answers: ((request: IncomingMessage, response: ServerResponse) => void)[];
    let seen: IncomingMessage[];

    const page = (response: ServerResponse): void => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ items: [{ id: 'one' }], nextCursor: null, totalItems: 1 }));
    };
    const rateLimited = (response: ServerResponse): void => {
      response.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '0', 'X-Request-Id': `req-${seen.length}` });
      response.end(JSON.stringify({ error: 'Rate limit exceeded.', errorCode: 'rate_limited' }));
    };

    beforeEach(async () => {
      answers = [];
      seen = [];
      stub = createServer((request, response) => {
        seen.push(request);
        const answer = answers.shift() ?? ((_, res) => rateLimited(res));
        answer(request, response);
      });
      await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      stub.closeAllConnections();
      await new Promise((resolve) => stub.close(resolve));
    });

    const client = (maxRetries: number) => createClient({ baseUrl: origin, apiKey: 'bcat_sk_test', brand: 'acme', maxRetries });

    for (const maxRetries of [0, 1, 2]) {
      it(`gives up after maxRetries (${maxRetries}) retries of a 429: ${maxRetries + 1} requests, then rate_limited`, async () => {
        const error = await rejection(client(maxRetries).list('carton-sizes').toArray());
        expect(seen).to.have.length(maxRetries + 1);
        expect(error).to.be.instanceOf(ApiError);
        expect(error).to.include({ status: 429, errorCode: 'rate_limited', retryAfterSeconds: 0, requestId: `req-${maxRetries + 1}` });
      });
    }

    it("waits out a 429 without Retry-After as its RateLimit field says (t: seconds until the window resets)", async () => {
      answers.push((_, response) => {
        response.writeHead(429, { 'Content-Type': 'application/json', RateLimit: '"default";r=0;t=1', 'RateLimit-Policy': '"default";q=5;w=60' });
        response.end(JSON.stringify({ error: 'Rate limit exceeded.', errorCode: 'rate_limited' }));
      });
      answers.push((_, response) => page(response));
      const notices: RetryNotice[] = [];
      const records = await createClient({ baseUrl: origin, apiKey: 'k', brand: 'acme', maxRetries: 1, onRetry: (notice) => notices.push(notice) })
        .list('carton-sizes').toArray();
      expect(records).to.deep.equal([{ id: 'one' }]);
      expect(notices.map(({ reason, delayMs }) => ({ reason, delayMs }))).to.deep.equal([{ reason: 'rate_limited', delayMs: 1000 }]);
    });

    it('sends the key, asks for JSON, and names itself in User-Agent', async () => {
      answers.push((_, response) => page(response));
      await client(0).list('carton-sizes').toArray();
      expect(seen[0]!.headers).to.include({ authorization: 'Bearer bcat_sk_test', accept: 'application/json' });
      expect(seen[0]!.headers['user-agent']).to.match(/^brand-catalog-client\//);
      expect(seen[0]!.url).to.equal('/api/public/v1/brands/acme/carton-sizes');
    });

    it('retries a dropped connection and a 503 with a doubling backoff, then succeeds', async () => {
      answers.push((request) => request.socket.destroy());
      answers.push((_, response) => response.writeHead(503).end('unavailable'));
      answers.push((_, response) => page(response));
      const notices: RetryNotice[] = [];
      const records = await createClient({ baseUrl: origin, apiKey: 'k', brand: 'acme', maxRetries: 2, onRetry: (notice) => notices.push(notice) })
        .list('carton-sizes')
        .toArray();
      expect(records).to.deep.equal([{ id: 'one' }]);
      expect(seen).to.have.length(3);
      expect(notices.map(({ retry, reason, delayMs }) => ({ retry, reason, delayMs }))).to.deep.equal([
        { retry: 1, reason: 'network', delayMs: 500 },
        { retry: 2, reason: 'status 503', delayMs: 1000 },
      ]);
    });

    it('throws NetworkError when the connection fails every time', async () => {
      answers.push((request) => request.socket.destroy(), (request) => request.socket.destroy());
      const error = await rejection(client(1).getBrand());
      expect(error).to.be.instanceOf(NetworkError);
      expect((error as NetworkError).attempts).to.equal(2);
      expect(seen).to.have.length(2);
    });

    it('does not retry a 500, and reports a body that is not the API\'s as unexpected_response', async () => {
      answers.push((_, response) => response.writeHead(500, { 'Content-Type': 'text/html' }).end('<h1>oops</h1>'));
      const error = await rejection(client(3).getBrand());
      expect(error).to.include({ status: 500, errorCode: 'unexpected_response' });
      expect((error as ApiError).details).to.equal('<h1>oops</h1>');
      expect(seen).to.have.length(1);
    });

    it('refuses a changes page that breaks the envelope: unexpected_response, never a wrong token', async () => {
      const bodies = [
        { items: [], nextCursor: 'c2', syncToken: 'both' },
        { items: [], nextCursor: null, syncToken: null },
        { items: [{ change: 'delete', id: 'x', record: {} }], nextCursor: null, syncToken: 't' },
        { items: [{ change: 'moved', id: 'x', record: null }], nextCursor: null, syncToken: 't' },
      ];
      for (const body of bodies) {
        answers.push((_, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body)));
        const batch = client(0).changes('carton-sizes');
        const error = await rejection(batch.next());
        expect(error, JSON.stringify(body)).to.include({ errorCode: 'unexpected_response' });
        expect(batch.syncToken).to.equal(null);
      }
      expect(seen.map((request) => request.url)).to.deep.equal(Array(bodies.length).fill('/api/public/v1/brands/acme/carton-sizes/changes'));
    });

    it('stops waiting when the signal aborts', async () => {
      answers.push((_, response) => {
        response.writeHead(429, { 'Retry-After': '30', 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ error: 'Rate limit exceeded.', errorCode: 'rate_limited' }));
      });
      const controller = new AbortController();
      const pending = rejection(client(3).list('carton-sizes', { signal: controller.signal }).toArray());
      await waitFor(async () => seen.length > 0, { timeoutMs: 10_000, intervalMs: 5, what: 'the first request to reach the server' });
      controller.abort(new Error('stopped by the test'));
      expect((await pending).message).to.equal('stopped by the test');
      expect(seen).to.have.length(1);
    });
  });
});
