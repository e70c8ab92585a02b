import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { useServer } from '../../support/use-server.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  let key: string;

  const server = useServer();
  beforeEach(async () => {
    ({ key } = await resetToBrand());
  });

  it('is on every response: 200, 400, 401, 404, 405 and 500', async () => {
    const { db } = await testDatabase();
    const seen = new Set<string>();
    const check = (status: number, id: string | null): void => {
      expect(id, `X-Request-Id on a ${status}`).to.match(UUID);
      seen.add(id!);
    };
    for (const [path, k, method, status] of [
      ['/brands/acme/carton-sizes', key, 'GET', 200],
      ['/openapi.json', null, 'GET', 200],
      ['/brands/acme/carton-sizes?limit=0', key, 'GET', 400],
      ['/brands/acme/carton-sizes', null, 'GET', 401],
      ['/brands/nope/carton-sizes', key, 'GET', 404],
      ['/nope', null, 'GET', 404],
      ['/brands/acme/carton-sizes', key, 'DELETE', 405],
    ] as const) {
      const response = await server.request(path, { key: k, method });
      expect(response.status, path).to.equal(status);
      check(status, response.headers.get('x-request-id'));
    }
    await db.raw('alter table notes rename to notes_gone');
    try {
      const response = await server.request('/brands/acme/notes', { key });
      expect(response.status).to.equal(500);
      check(500, response.headers.get('x-request-id'));
    } finally {
      await db.raw('alter table notes_gone rename to notes');
    }
    expect(seen.size, 'each request gets an id of its own').to.equal(8);
  });

  it("echoes a client's sane id, on success and on error", async () => {
    for (const id of ['abc-123', 'req.2026:01_x-Y', 'a', 'x'.repeat(128), randomUUID()]) {
      const ok = await server.request('/brands/acme/carton-sizes', { key, headers: { 'X-Request-Id': id } });
      expect(ok.status).to.equal(200);
      expect(ok.headers.get('x-request-id')).to.equal(id);
      const denied = await server.request('/brands/acme/carton-sizes', { headers: { 'X-Request-Id': id } });
      expect(denied.status).to.equal(401);
      expect(denied.headers.get('x-request-id')).to.equal(id);
    }
  });

  it('replaces an insane id (too long, spaces, other characters) with one of its own', async () => {
    for (const id of ['x'.repeat(129), 'has space', 'semi;colon', '<script>', 'a/b', 'ünïcode', 'a,b']) {
      const response = await server.request('/brands/acme/carton-sizes', { key, headers: { 'X-Request-Id': id } });
      expect(response.status).to.equal(200);
      const given = response.headers.get('x-request-id');
      expect(given, id).to.not.equal(id);
      expect(given, id).to.match(UUID);
      const line = server.logs.find((l) => l.msg === 'request' && l.requestId === given);
      expect(line, 'the log line carries the replacement id').to.not.equal(undefined);
    }
  });
});
