import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createBrand, createTestKey, insert, resetToBrand } from '../support/fixtures.ts';
import { testDatabase } from '../support/test-database.ts';
import { startTestServer, TEST_CURSOR_SECRET, type TestResponse } from '../support/test-server.ts';
import { useServer } from '../support/use-server.ts';
import { expectError, ids, listOrder, qs } from './helpers.ts';

/** The `rel="next"` target of a response, or null. */
function nextLink(response: TestResponse): string | null {
  const header = response.headers.get('link');
  if (header === null) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(header);
  expect(match, `Link header: ${header}`).to.not.equal(null);
  return match![1]!;
}

describe('pagination of list routes', () => {
  let brand: { id: string; slug: string };
  let key: string;

  const server = useServer();
  beforeEach(async () => {
    ({ brand, key } = await resetToBrand());
  });

  const get = (path: string): Promise<TestResponse> => server.request(path, { key });

  /** Follows nextCursor with the given query, collecting ids and page sizes. */
  async function walk(path: string, query: Record<string, string>): Promise<{ ids: string[]; sizes: number[]; totals: number[] }> {
    const seen: string[] = [];
    const sizes: number[] = [];
    const totals: number[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 1000; guard++) {
      const response = await get(`${path}${qs({ ...query, ...(cursor ? { cursor } : {}) })}`);
      expect(response.status, response.text).to.equal(200);
      expect(Object.keys(response.body)).to.deep.equal(['items', 'nextCursor', 'totalItems']);
      seen.push(...ids(response));
      sizes.push(response.body.items.length);
      totals.push(response.body.totalItems);
      cursor = response.body.nextCursor;
      if (cursor === null) return { ids: seen, sizes, totals };
    }
    throw new Error('the walk never ended');
  }

  describe('limit', () => {
    it('defaults to 25 and accepts 1 to 100', async () => {
      await insert('carton-sizes', brand.id, Array.from({ length: 120 }, (_, i) => ({ name: `C${i}` })));
      const byDefault = await get('/brands/acme/carton-sizes');
      expect(byDefault.body.items).to.have.length(25);
      expect(byDefault.body.totalItems).to.equal(120);
      for (const [limit, size] of [['1', 1], ['2', 2], ['99', 99], ['100', 100]] as const) {
        const response = await get(`/brands/acme/carton-sizes?limit=${limit}`);
        expect(response.status, limit).to.equal(200);
        expect(response.body.items, limit).to.have.length(size);
        expect(response.body.nextCursor).to.be.a('string');
      }
      // A limit past the end gives every row and no next page.
      const few = await insert('options', brand.id, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
      const all = await get('/brands/acme/options?limit=3');
      expect(ids(all)).to.deep.equal(few.map((o) => o.id));
      expect(all.body.nextCursor).to.equal(null);
      expect(all.headers.get('link')).to.equal(null);
    });

    it('answers a limit out of 1..100 or not a plain integer with 400 invalid_parameter naming limit', async () => {
      await insert('carton-sizes', brand.id, [{ name: 'A' }]);
      for (const limit of ['0', '101', '-1', '1.5', '1e1', ' 5', '5 ', 'abc', '', '+5', '0x10', '1000000000000000000000', 'null', '[5]']) {
        const response = await get(`/brands/acme/carton-sizes?limit=${encodeURIComponent(limit)}`);
        expectError(response, 400, 'invalid_parameter', ['limit']);
        expect(response.body.details, limit).to.have.length(1);
      }
      expectError(await get('/brands/acme/options?limit=101'), 400, 'invalid_parameter', ['limit']);
      expectError(await get('/brands/acme/products?limit=0'), 400, 'invalid_parameter', ['limit']);
    });
  });

  describe('parameters', () => {
    it('answers a parameter given twice with 400 naming it', async () => {
      expectError(await get('/brands/acme/carton-sizes?limit=5&limit=5'), 400, 'invalid_parameter', ['limit']);
      expectError(await get('/brands/acme/carton-sizes?limit=5&limit=6'), 400, 'invalid_parameter', ['limit']);
      // An exact filter is the exception (any of its values: CONTRACT.md section 8); a range bound is not.
      expectError(await get('/brands/acme/carton-sizes?createdAt%5Bgte%5D=2026-01-01T00:00:00Z&createdAt%5Bgte%5D=2026-01-02T00:00:00Z'), 400, 'invalid_parameter', ['createdAt[gte]']);
      expectError(await get('/brands/acme/carton-sizes?sort=name&sort=name'), 400, 'invalid_parameter', ['sort']);
      const first = await get('/brands/acme/carton-sizes?limit=1');
      expect(first.status).to.equal(200);
      await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
      const page = await get('/brands/acme/carton-sizes?limit=1');
      const cursor = page.body.nextCursor as string;
      expectError(await get(`/brands/acme/carton-sizes?cursor=${cursor}&cursor=${cursor}`), 400, 'invalid_parameter', ['cursor']);
    });

    it('answers an unknown parameter with 400 and details naming each', async () => {
      expectError(await get('/brands/acme/carton-sizes?offset=10'), 400, 'invalid_parameter', ['offset']);
      expectError(await get('/brands/acme/carton-sizes?Limit=10'), 400, 'invalid_parameter', ['Limit']);
      expectError(await get('/brands/acme/carton-sizes?page=2&per_page=5'), 400, 'invalid_parameter', ['page', 'per_page']);
      expectError(await get('/brands/acme/carton-sizes?limit=0&order=name'), 400, 'invalid_parameter', ['limit', 'order']);
      // A filter of another family is not a filter here.
      expectError(await get('/brands/acme/carton-sizes?code=A'), 400, 'invalid_parameter', ['code']);
    });
  });

  describe('walking pages', () => {
    it('walks several pages with limit 7 in createdAt, id order, never repeating or skipping', async () => {
      const created = await insert('carton-sizes', brand.id, Array.from({ length: 30 }, (_, i) => ({ name: `C${i}` })));
      await insert('carton-sizes', (await createBrand('globex')).id, Array.from({ length: 5 }, (_, i) => ({ name: `G${i}` })));
      const result = await walk('/brands/acme/carton-sizes', { limit: '7' });
      expect(result.sizes).to.deep.equal([7, 7, 7, 7, 2]);
      expect(result.totals).to.deep.equal([30, 30, 30, 30, 30]);
      expect(result.ids).to.deep.equal(created.map((c) => c.id));
    });

    it('pages exactly when the count is a multiple of the limit', async () => {
      const created = await insert('carton-sizes', brand.id, Array.from({ length: 14 }, (_, i) => ({ name: `C${i}` })));
      const first = await get('/brands/acme/carton-sizes?limit=7');
      const second = await get(`/brands/acme/carton-sizes?limit=7&cursor=${first.body.nextCursor}`);
      expect(ids(second)).to.deep.equal(created.slice(7).map((c) => c.id));
      expect(second.body.nextCursor).to.equal(null);
      expect(second.headers.get('link')).to.equal(null);
    });

    it('orders rows that share a millisecond by their microseconds', async () => {
      const micros = ['123005', '123001', '123999', '123000', '123500', '122999', '124000', '123002'];
      const created = await insert('carton-sizes', brand.id, micros.map((us) => ({
        name: us, createdAt: `2026-03-01T09:30:00.${us}Z`, updatedAt: '2026-03-01T09:30:00Z',
      })));
      const expected = [...created].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1)).map((c) => c.id);
      for (const limit of ['1', '2', '3']) {
        const result = await walk('/brands/acme/carton-sizes', { limit });
        expect(result.ids, `limit ${limit}`).to.deep.equal(expected);
      }
      const all = await get('/brands/acme/carton-sizes');
      expect(all.body.items.map((c: { name: string }) => c.name)).to.deep.equal(['122999', '123000', '123001', '123002', '123005', '123500', '123999', '124000']);
      expect(all.body.items.filter((c: { createdAt: string }) => c.createdAt === '2026-03-01T09:30:00.123Z')).to.have.length(6);
    });

    it('breaks ties of identical createdAt by id, across page boundaries', async () => {
      const at = '2026-03-01T09:30:00.123001Z';
      const before = await insert('carton-sizes', brand.id, [{ name: 'before', createdAt: '2026-03-01T09:30:00.123000Z', updatedAt: at }]);
      const tied = await insert('carton-sizes', brand.id, Array.from({ length: 9 }, (_, i) => ({ name: `tie${i}`, createdAt: at, updatedAt: at })));
      const after = await insert('carton-sizes', brand.id, [{ name: 'after', createdAt: '2026-03-01T09:30:00.123002Z', updatedAt: at }]);
      const expected = [...before, ...listOrder(tied), ...after].map((c) => c.id);
      for (const limit of ['1', '2', '4', '7']) {
        const result = await walk('/brands/acme/carton-sizes', { limit });
        expect(result.ids, `limit ${limit}`).to.deep.equal(expected);
      }
    });

    it('never repeats or skips rows that existed when rows are inserted during the walk', async () => {
      const original = await insert('carton-sizes', brand.id, Array.from({ length: 20 }, (_, i) => ({ name: `O${i}` })));
      const seen: string[] = [];
      const added: string[] = [];
      let cursor: string | null = null;
      let page = 0;
      do {
        const response = await get(`/brands/acme/carton-sizes${qs({ limit: '3', ...(cursor ? { cursor } : {}) })}`);
        expect(response.status).to.equal(200);
        seen.push(...ids(response));
        cursor = response.body.nextCursor;
        page += 1;
        // Rows written while the client pages: later createdAt, and some with a tie on the last row's millisecond.
        const inserted = await insert('carton-sizes', brand.id, [{ name: `N${page}` }]);
        if (page <= 3) added.push(inserted[0]!.id);
        if (page > 3) break;
      } while (cursor);
      do {
        const response = await get(`/brands/acme/carton-sizes${qs({ limit: '3', ...(cursor ? { cursor } : {}) })}`);
        expect(response.status).to.equal(200);
        seen.push(...ids(response));
        cursor = response.body.nextCursor;
      } while (cursor);
      const originals = original.map((o) => o.id);
      expect(seen.filter((id) => originals.includes(id))).to.deep.equal(originals);
      expect(new Set(seen).size).to.equal(seen.length);
      // Rows added after the position of the walk are seen at the end, in order.
      expect(seen.slice(0, originals.length)).to.deep.equal(originals);
      expect(seen.slice(originals.length, originals.length + added.length)).to.deep.equal(added);
    });

    it('never repeats rows when rows are inserted before the cursor position during the walk', async () => {
      const original = await insert('carton-sizes', brand.id, Array.from({ length: 10 }, (_, i) => ({
        name: `O${i}`, createdAt: `2026-05-01T00:00:0${i}Z`, updatedAt: '2026-05-01T00:00:00Z',
      })));
      const first = await get('/brands/acme/carton-sizes?limit=4');
      await insert('carton-sizes', brand.id, [{ name: 'early', createdAt: '2026-04-01T00:00:00Z', updatedAt: '2026-04-01T00:00:00Z' }]);
      const rest = await walk('/brands/acme/carton-sizes', { limit: '4', cursor: first.body.nextCursor });
      expect([...ids(first), ...rest.ids]).to.deep.equal(original.map((o) => o.id));
      // Later pages carry the total their walk's first page counted (README); a new walk counts again.
      expect(rest.totals).to.deep.equal(rest.totals.map(() => 10));
      expect((await get('/brands/acme/carton-sizes?limit=4')).body.totalItems).to.equal(11);
    });

    it('lets the limit change between pages with the same cursor', async () => {
      const created = (await insert('carton-sizes', brand.id, Array.from({ length: 20 }, (_, i) => ({ name: `C${i}` })))).map((c) => c.id);
      const first = await get('/brands/acme/carton-sizes?limit=3');
      expect(ids(first)).to.deep.equal(created.slice(0, 3));
      const cursor = first.body.nextCursor as string;
      const five = await get(`/brands/acme/carton-sizes?limit=5&cursor=${cursor}`);
      expect(ids(five)).to.deep.equal(created.slice(3, 8));
      const one = await get(`/brands/acme/carton-sizes?limit=1&cursor=${cursor}`);
      expect(ids(one)).to.deep.equal(created.slice(3, 4));
      const byDefault = await get(`/brands/acme/carton-sizes?cursor=${cursor}`);
      expect(ids(byDefault)).to.deep.equal(created.slice(3, 20));
      expect(byDefault.body.nextCursor).to.equal(null);
      const next = await get(`/brands/acme/carton-sizes?limit=100&cursor=${five.body.nextCursor}`);
      expect(ids(next)).to.deep.equal(created.slice(8));
    });

    it('walks a filtered list with totalItems equal to the filtered count on every page', async () => {
      const created = await insert('carton-sizes', brand.id, Array.from({ length: 23 }, (_, i) => ({ name: i % 2 === 0 ? 'Even' : 'Odd' })));
      const result = await walk('/brands/acme/carton-sizes', { name: 'Even', limit: '5' });
      expect(result.ids).to.deep.equal(created.filter((_, i) => i % 2 === 0).map((c) => c.id));
      expect(result.sizes).to.deep.equal([5, 5, 2]);
      expect(result.totals).to.deep.equal([12, 12, 12]);
    });
  });

  describe('cursors', () => {
    it('is accepted with the same filters in another order', async () => {
      const tops = (await insert('categories', brand.id, [{ name: 'Tops' }]))[0]!;
      const products = await insert('products', brand.id, Array.from({ length: 6 }, () => ({ status: 'approved', categoryId: tops.id, code: 'X' })));
      const first = await get(`/brands/acme/products?status=approved&category=${tops.id}&code=X&limit=2`);
      const second = await get(`/brands/acme/products?code=X&category=${tops.id}&limit=2&status=approved&cursor=${first.body.nextCursor}`);
      expect(second.status, second.text).to.equal(200);
      expect(ids(second)).to.deep.equal(products.slice(2, 4).map((p) => p.id));
    });

    it('stays valid when include changes, since include is no filter', async () => {
      const options = await insert('options', brand.id, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
      const first = await get('/brands/acme/options?limit=1&include=optionValues');
      expect(first.body.items[0].optionValues).to.deep.equal([]);
      const second = await get(`/brands/acme/options?limit=1&cursor=${first.body.nextCursor}`);
      expect(ids(second)).to.deep.equal([options[1]!.id]);
      expect(second.body.items[0]).to.not.have.property('optionValues');
      const third = await get(`/brands/acme/options?limit=1&include=optionValues&cursor=${second.body.nextCursor}`);
      expect(ids(third)).to.deep.equal([options[2]!.id]);
      expect(third.body.items[0].optionValues).to.deep.equal([]);
    });

    it('is cursor_mismatch with different filters', async () => {
      await insert('carton-sizes', brand.id, Array.from({ length: 6 }, (_, i) => ({ name: i < 4 ? 'A' : 'B' })));
      const filtered = await get('/brands/acme/carton-sizes?name=A&limit=2');
      const cursor = filtered.body.nextCursor as string;
      expect(cursor).to.be.a('string');
      expectError(await get(`/brands/acme/carton-sizes?name=B&limit=2&cursor=${cursor}`), 400, 'cursor_mismatch');
      expectError(await get(`/brands/acme/carton-sizes?limit=2&cursor=${cursor}`), 400, 'cursor_mismatch');
      expectError(await get(`/brands/acme/carton-sizes?name=a&limit=2&cursor=${cursor}`), 400, 'cursor_mismatch');
      const unfiltered = await get('/brands/acme/carton-sizes?limit=2');
      expectError(await get(`/brands/acme/carton-sizes?name=A&cursor=${unfiltered.body.nextCursor}`), 400, 'cursor_mismatch');
      // The genuine continuation still works.
      const ok = await get(`/brands/acme/carton-sizes?name=A&limit=2&cursor=${cursor}`);
      expect(ok.status).to.equal(200);
    });

    it('is cursor_mismatch on another collection', async () => {
      await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
      await insert('options', brand.id, [{ name: 'A' }, { name: 'B' }]);
      const cartons = await get('/brands/acme/carton-sizes?limit=1');
      expectError(await get(`/brands/acme/options?limit=1&cursor=${cartons.body.nextCursor}`), 400, 'cursor_mismatch');
      // Even with the same filter name and value.
      await insert('carton-sizes', brand.id, [{ name: 'A' }]);
      await insert('options', brand.id, [{ name: 'A' }]);
      const named = await get('/brands/acme/carton-sizes?name=A&limit=1');
      expectError(await get(`/brands/acme/options?name=A&limit=1&cursor=${named.body.nextCursor}`), 400, 'cursor_mismatch');
      expectError(await get(`/brands/acme/units-of-measure?limit=1&cursor=${cartons.body.nextCursor}`), 400, 'cursor_mismatch');
    });

    it('is cursor_mismatch on another brand, even for a key that reads both', async () => {
      const globex = await createBrand('globex');
      const { key: globalKey } = await createTestKey({ global: true });
      await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
      await insert('carton-sizes', globex.id, [{ name: 'A' }, { name: 'B' }]);
      const page = await server.request('/brands/acme/carton-sizes?limit=1', { key: globalKey });
      const cursor = page.body.nextCursor as string;
      expectError(await server.request(`/brands/globex/carton-sizes?limit=1&cursor=${cursor}`, { key: globalKey }), 400, 'cursor_mismatch');
      const ok = await server.request(`/brands/acme/carton-sizes?limit=1&cursor=${cursor}`, { key: globalKey });
      expect(ok.status).to.equal(200);
    });

    it('is invalid_cursor when tampered, truncated or garbage', async () => {
      await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
      const page = await get('/brands/acme/carton-sizes?limit=1');
      const cursor = page.body.nextCursor as string;
      const [payload, signature] = cursor.split('.') as [string, string];
      const flip = (text: string, at: number): string => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
      // A forged payload: a valid position of the same scope, with the old signature.
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...decoded, i: '00000000-0000-4000-8000-000000000000' })).toString('base64url');
      const bad = [
        `${flip(payload, 5)}.${signature}`,
        `${payload}.${flip(signature, 3)}`,
        `${forged}.${signature}`,
        cursor.slice(0, -2),
        `${payload}.${signature.slice(0, 10)}`,
        `${payload.slice(0, 10)}.${signature}`,
        `${signature}.${payload}`,
        `${payload}.${signature}.${signature}`,
        'garbage',
        'garbage.garbage',
        payload,
        `${payload}.`,
        `.${signature}`,
        'eyJ2IjoxfQ.AAAAAAAAAAAAAAAAAAAAAAAA',
        '!!!not base64!!!',
        'x'.repeat(2000),
      ];
      for (const value of bad) {
        const response = await get(`/brands/acme/carton-sizes?limit=1&cursor=${encodeURIComponent(value)}`);
        expect(response.status, value).to.equal(400);
        expect(response.body.errorCode, `cursor ${value}: ${response.text}`).to.equal('invalid_cursor');
        expectError(response, 400, 'invalid_cursor');
      }
    });

    it('is invalid_cursor when characters are added to the signature (the cursor is not the one issued)', async () => {
      await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
      const page = await get('/brands/acme/carton-sizes?limit=1');
      const cursor = page.body.nextCursor as string;
      const [payload, signature] = cursor.split('.') as [string, string];
      const altered = [
        `${cursor}=`,
        `${cursor}==`,
        `${cursor} `,
        `${payload}.${signature.slice(0, 6)}!${signature.slice(6)}`,
        `${payload}.${signature.slice(0, 6)}*${signature.slice(6)}`,
      ];
      for (const value of altered) {
        const response = await get(`/brands/acme/carton-sizes?limit=1&cursor=${encodeURIComponent(value)}`);
        expect(response.status, `cursor ${JSON.stringify(value)}: ${response.text.slice(0, 200)}`).to.equal(400);
        expectError(response, 400, 'invalid_cursor');
      }
    });

    it('is invalid_cursor when signed with another secret, and valid on a server that shares the secret', async () => {
      await insert('carton-sizes', brand.id, Array.from({ length: 5 }, (_, i) => ({ name: `C${i}` })));
      const page = await get('/brands/acme/carton-sizes?limit=2');
      const cursor = page.body.nextCursor as string;
      const twin = await startTestServer({ cursorSecret: TEST_CURSOR_SECRET });
      const stranger = await startTestServer({ cursorSecret: 'another-secret-of-at-least-32-characters!!' });
      try {
        const onTwin = await twin.request(`/brands/acme/carton-sizes?limit=2&cursor=${cursor}`, { key });
        expect(onTwin.status).to.equal(200);
        expect(onTwin.body).to.deep.equal((await get(`/brands/acme/carton-sizes?limit=2&cursor=${cursor}`)).body);
        expectError(await stranger.request(`/brands/acme/carton-sizes?limit=2&cursor=${cursor}`, { key }), 400, 'invalid_cursor');
        // And the other way round: the stranger's cursor is not ours.
        const theirs = await stranger.request('/brands/acme/carton-sizes?limit=2', { key });
        expect(theirs.status).to.equal(200);
        expectError(await get(`/brands/acme/carton-sizes?limit=2&cursor=${theirs.body.nextCursor}`), 400, 'invalid_cursor');
        const own = await stranger.request(`/brands/acme/carton-sizes?limit=2&cursor=${theirs.body.nextCursor}`, { key });
        expect(ids(own)).to.deep.equal(ids(onTwin));
      } finally {
        await twin.close();
        await stranger.close();
      }
    });

    it('keeps working after the rows it points at are gone from the page', async () => {
      const created = await insert('carton-sizes', brand.id, Array.from({ length: 6 }, (_, i) => ({ name: `C${i}` })));
      const page = await get('/brands/acme/carton-sizes?limit=2');
      const { db } = await testDatabase();
      await db('carton_sizes').where({ id: created[1]!.id }).delete();
      const next = await get(`/brands/acme/carton-sizes?limit=2&cursor=${page.body.nextCursor}`);
      expect(ids(next)).to.deep.equal([created[2]!.id, created[3]!.id]);
    });
  });

  describe('Link header and body', () => {
    it('is origin-relative, resolves against the request URL, and keeps filters, include and limit', async () => {
      const option = (await insert('options', brand.id, [{ name: 'Colour' }]))[0]!;
      const values = await insert('option-values', brand.id, Array.from({ length: 7 }, (_, i) => ({
        optionId: option.id, status: i === 3 ? 'archived' : 'active & ready+1 %/?', name: `V${i}`,
      })));
      const status = 'active & ready+1 %/?';
      const firstPath = `/brands/acme/option-values${qs({ status, include: 'option', optionId: option.id, limit: '2' })}`;
      let response = await get(firstPath);
      let requestUrl = `${server.baseUrl}${firstPath}`;
      const seen: string[] = [];
      let pages = 0;
      for (;;) {
        expect(response.status, response.text).to.equal(200);
        expect(Object.keys(response.body)).to.deep.equal(['items', 'nextCursor', 'totalItems']);
        expect(response.body.totalItems).to.equal(6);
        for (const item of response.body.items) {
          expect(item.status).to.equal(status);
          expect(item.option).to.deep.include({ id: option.id, name: 'Colour' });
        }
        seen.push(...ids(response));
        pages += 1;
        const link = nextLink(response);
        if (response.body.nextCursor === null) {
          expect(link).to.equal(null);
          break;
        }
        expect(link).to.be.a('string');
        expect(link!.startsWith('/api/public/v1/brands/acme/option-values?'), link!).to.equal(true);
        expect(link).to.not.match(/^[a-z]+:/i);
        const next = new URL(link!, requestUrl);
        expect(next.origin).to.equal(server.origin);
        expect(next.searchParams.get('status')).to.equal(status);
        expect(next.searchParams.get('optionId')).to.equal(option.id);
        expect(next.searchParams.get('include')).to.equal('option');
        expect(next.searchParams.get('limit')).to.equal('2');
        expect(next.searchParams.get('cursor')).to.equal(response.body.nextCursor);
        expect([...next.searchParams.keys()].sort()).to.deep.equal(['cursor', 'include', 'limit', 'optionId', 'status']);
        requestUrl = next.toString();
        response = await server.request(`${next.pathname}${next.search}`, { key });
      }
      expect(pages).to.equal(3);
      expect(seen).to.deep.equal(values.filter((_, i) => i !== 3).map((v) => v.id));
    });

    it('carries the default limit when none was given, and no Link on a single page', async () => {
      await insert('carton-sizes', brand.id, Array.from({ length: 26 }, (_, i) => ({ name: `C${i}` })));
      const first = await get('/brands/acme/carton-sizes');
      const link = nextLink(first);
      const next = new URL(link!, `${server.baseUrl}/brands/acme/carton-sizes`);
      expect(next.pathname).to.equal('/api/public/v1/brands/acme/carton-sizes');
      expect(next.searchParams.get('limit')).to.equal('25');
      expect(next.searchParams.get('cursor')).to.equal(first.body.nextCursor);
      const last = await get(`${next.pathname}${next.search}`);
      expect(last.body.items).to.have.length(1);
      expect(last.body.nextCursor).to.equal(null);
      expect(last.headers.get('link')).to.equal(null);
      const only = await get('/brands/acme/carton-sizes?limit=100');
      expect(only.body.nextCursor).to.equal(null);
      expect(only.headers.get('link')).to.equal(null);
    });

    it('answers a body of exactly { items, nextCursor, totalItems } on every list', async () => {
      for (const path of [
        'carton-sizes', 'option-values', 'options', 'products', 'categories', 'product-versions', 'product-relations',
        'measurement-tables', 'notes', 'shipment-items', 'goods-receipt-lines', 'order-shipments', 'units-of-measure', 'dimension-groups',
      ]) {
        const response = await get(`/brands/acme/${path}`);
        expect(response.status, path).to.equal(200);
        expect(response.headers.get('content-type')).to.match(/^application\/json/);
        expect(response.body, path).to.deep.equal({ items: [], nextCursor: null, totalItems: 0 });
      }
    });

    it('never puts an unknown id in the cursor query of the Link', async () => {
      await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
      const response = await get('/brands/acme/carton-sizes?limit=1');
      const next = new URL(nextLink(response)!, server.origin);
      expect(next.searchParams.getAll('cursor')).to.have.length(1);
      expect(next.searchParams.getAll('limit')).to.have.length(1);
      expect(randomUUID()).to.not.equal(next.searchParams.get('cursor'));
    });
  });
});
