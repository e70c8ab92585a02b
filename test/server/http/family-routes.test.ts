import { expect } from 'chai';
import { compileRegistry } from '../../../src/engine/compile/compile-registry.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';
import { createChangesCodec } from '../../../src/engine/request/changes-codec.ts';
import { createCursorCodec } from '../../../src/engine/request/cursor-codec.ts';
import { buildFamilyRoutes } from '../../../src/server/http/family-routes.ts';
import { createBrand, createTestKey, insert, resetToBrand } from '../../support/fixtures.ts';
import { useServer } from '../../support/use-server.ts';

describe('buildFamilyRoutes', () => {
  it('gives the tenant family a get and every other family a list, a get, its changes and its counts, from the registry alone', async () => {
    const registry = await loadRegistry();
    const families = compileRegistry(registry);
    const reads = { run: async () => { throw new Error('not read here'); } };
    const cursors = createCursorCodec('c'.repeat(32));
    const routes = buildFamilyRoutes({ families, reads, cursors, changes: createChangesCodec(cursors), syncRetentionDays: 30, live: { changes: () => Promise.reject(new Error('no wait here')), stop() {}, waiting: () => 0, close() {} } });
    const tenant = registry.resources.filter((resource) => resource.scope === 'tenant');
    expect(routes).to.have.length(tenant.length + 4 * (registry.resources.length - tenant.length));
    expect(routes.filter((route) => route.family === 'products').map((route) => route.path).sort())
      .to.deep.equal(['/brands/:brand/products', '/brands/:brand/products/:id', '/brands/:brand/products/changes', '/brands/:brand/products/counts']);

    expect(routes.find((route) => route.family === tenant[0]!.path)!.path).to.equal(`/${tenant[0]!.path}/:brand`);
  });

  describe('over HTTP', () => {
    const server = useServer();
    let key: string;
    before(async () => {
      await resetToBrand();
    });

    it('links the next page with the filters in the order given, the limit and the cursor', async () => {
      const brand = await createBrand('linked');
      ({ key } = await createTestKey({ brands: ['linked'] }));
      await insert('options', brand.id, [{ name: 'A' }, { name: 'A' }, { name: 'A' }]);
      const page = await server.request('/brands/linked/options?name=A&limit=1', { key });
      expect(page.status).to.equal(200);
      const link = page.headers.get('link')!;
      expect(link).to.match(/^<\/api\/public\/v1\/brands\/linked\/options\?name=A&limit=1&cursor=[^>]+>; rel="next"$/);
    });

    it('keeps the sort and every value of a filter given several times in the next page\'s link', async () => {
      const brand = await createBrand('sorted');
      const { key: sortedKey } = await createTestKey({ brands: ['sorted'] });
      await insert('products', brand.id, [{ code: 'A', status: 'draft' }, { code: 'B', status: 'approved' }, { code: 'C', status: 'draft' }, { code: 'D', status: 'retired' }]);
      const page = await server.request('/brands/sorted/products?status=draft&status=approved&sort=-code&limit=1', { key: sortedKey });
      expect(page.body.items.map((item: { code: string }) => item.code)).to.deep.equal(['C']);
      expect(page.body.totalItems).to.equal(3);
      const link = page.headers.get('link')!;
      expect(link).to.match(/^<\/api\/public\/v1\/brands\/sorted\/products\?status=draft&status=approved&sort=-code&limit=1&cursor=[^>]+>; rel="next"$/);
      const codes: string[] = ['C'];
      for (let next: string | null = /^<\/api\/public\/v1([^>]+)>/.exec(link)![1]!; next !== null;) {
        const more = await server.request(next, { key: sortedKey });
        codes.push(...more.body.items.map((item: { code: string }) => item.code));
        next = more.headers.get('link') === null ? null : /^<\/api\/public\/v1([^>]+)>/.exec(more.headers.get('link')!)![1]!;
      }
      expect(codes).to.deep.equal(['C', 'B', 'A']);
      // The cursor is the walk's: another sort, or other values, is cursor_mismatch.
      const cursor = page.body.nextCursor as string;
      const other = await server.request(`/brands/sorted/products?status=draft&status=approved&sort=code&cursor=${cursor}`, { key: sortedKey });
      expect(other.body.errorCode).to.equal('cursor_mismatch');
      const reordered = await server.request(`/brands/sorted/products?status=approved&status=draft&sort=-code&cursor=${cursor}`, { key: sortedKey });
      expect(reordered.status, reordered.text).to.equal(200);
    });

    it('counts by value with the list\'s filters, remembers the counts until a row changes, and answers 304 to the same tag', async () => {
      const brand = await createBrand('counted');
      const { key: countsKey } = await createTestKey({ brands: ['counted'] });
      await insert('products', brand.id, [{ status: 'draft' }, { status: 'approved' }, { status: 'draft' }, { status: null }, { status: 'draft', code: 'X' }]);
      const counts = await server.request('/brands/counted/products/counts?by=status', { key: countsKey });
      expect(counts.status, counts.text).to.equal(200);
      expect(counts.body).to.deep.equal({
        by: 'status', counts: [{ value: 'draft', count: 3 }, { value: 'approved', count: 1 }, { value: null, count: 1 }], otherItems: 0, totalItems: 5,
      });
      const filtered = await server.request('/brands/counted/products/counts?by=status&status=draft&status=approved&code=X', { key: countsKey });
      expect(filtered.body).to.deep.equal({ by: 'status', counts: [{ value: 'draft', count: 1 }], otherItems: 0, totalItems: 1 });
      const again = await server.request('/brands/counted/products/counts?by=status', { key: countsKey, headers: { 'if-none-match': counts.headers.get('etag')! } });
      expect(again.status).to.equal(304);
      await insert('products', brand.id, [{ status: 'approved' }]);
      const changed = await server.request('/brands/counted/products/counts?by=status', { key: countsKey, headers: { 'if-none-match': counts.headers.get('etag')! } });
      expect(changed.status).to.equal(200);
      expect(changed.body.counts).to.deep.equal([{ value: 'draft', count: 3 }, { value: 'approved', count: 2 }, { value: null, count: 1 }]);
      expect(changed.body.totalItems).to.equal(6);
    });

    it('answers the counts of a family that counts nothing with 400 naming by', async () => {
      const countsKey = (await createTestKey({ brands: ['counted'] })).key;
      const { registry } = await import('../../support/test-database.ts').then((m) => m.testDatabase());
      const none = registry.resources.find((resource) => resource.scope !== 'tenant' && resource.countable.length === 0)!;
      const response = await server.request(`/brands/counted/${none.path}/counts?by=id`, { key: countsKey });
      expect(response.status).to.equal(400);
      expect(response.body.details).to.deep.equal([{ parameter: 'by', message: `${none.path} declares no countable field: it has no counts by value` }]);
    });

    it('refuses on counts a by that is missing or not countable, and every parameter of a page', async () => {
      const countsKey = (await createTestKey({ brands: ['counted'] })).key;
      const ask = (query: string) => server.request(`/brands/counted/products/counts${query}`, { key: countsKey });
      const cases: [string, string[]][] = [
        ['', ['by']], ['?by=code', ['by']], ['?by=status&by=status', ['by']], ['?by=nope', ['by']],
        ['?by=status&limit=5', ['limit']], ['?by=status&cursor=x', ['cursor']], ['?by=status&sort=code', ['sort']],
        ['?by=status&include=skus', ['include']], ['?by=status&fields=id', ['fields']],
      ];
      for (const [query, parameters] of cases) {
        const response = await ask(query);
        expect(response.status, `${query}: ${response.text}`).to.equal(400);
        expect(response.body.errorCode).to.equal('invalid_parameter');
        expect((response.body.details as { parameter: string }[]).map((d) => d.parameter), query).to.deep.equal(parameters);
      }
    });

    it('answers a malformed id with 400 naming the id, and an unknown one with 404', async () => {
      const malformed = await server.request('/brands/linked/options/not-a-uuid', { key });
      expect(malformed.status).to.equal(400);
      expect(malformed.body.details).to.deep.equal([{ parameter: 'id', message: 'must be a lower-case UUID' }]);
      const unknown = await server.request('/brands/linked/options/00000000-0000-4000-8000-000000000000', { key });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.errorCode).to.equal('not_found');
    });
  });
});
