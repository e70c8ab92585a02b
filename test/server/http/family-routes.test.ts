import { expect } from 'chai';
import { compileRegistry } from '../../../src/engine/compile/compile-registry.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';
import { createChangesCodec } from '../../../src/engine/request/changes-codec.ts';
import { createCursorCodec } from '../../../src/engine/request/cursor-codec.ts';
import { buildFamilyRoutes } from '../../../src/server/http/family-routes.ts';
import { createBrand, createTestKey, insert, resetToBrand } from '../../support/fixtures.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

describe('buildFamilyRoutes', () => {
  it('gives the tenant family a get and every other family a list, a get and its changes, from the registry alone', async () => {
    const registry = await loadRegistry();
    const families = compileRegistry(registry);
    const reads = { run: async () => { throw new Error('not read here'); } };
    const cursors = createCursorCodec('c'.repeat(32));
    const routes = buildFamilyRoutes({ families, reads, cursors, changes: createChangesCodec(cursors), syncRetentionDays: 30, live: { changes: () => Promise.reject(new Error('no wait here')), stop() {}, waiting: () => 0, close() {} } });
    const tenant = registry.resources.filter((resource) => resource.scope === 'tenant');
    expect(routes).to.have.length(tenant.length + 3 * (registry.resources.length - tenant.length));
    expect(routes.filter((route) => route.family === 'products').map((route) => route.path).sort())
      .to.deep.equal(['/brands/:brand/products', '/brands/:brand/products/:id', '/brands/:brand/products/changes']);
    expect(routes.find((route) => route.family === tenant[0]!.path)!.path).to.equal(`/${tenant[0]!.path}/:brand`);
  });

  describe('over HTTP', () => {
    let server: TestServer;
    let key: string;
    before(async () => {
      server = await startTestServer();
      await resetToBrand();
    });
    after(() => server.close());

    it('links the next page with the filters in the order given, the limit and the cursor', async () => {
      const brand = await createBrand('linked');
      ({ key } = await createTestKey({ brands: ['linked'] }));
      await insert('options', brand.id, [{ name: 'A' }, { name: 'A' }, { name: 'A' }]);
      const page = await server.request('/brands/linked/options?name=A&limit=1', { key });
      expect(page.status).to.equal(200);
      const link = page.headers.get('link')!;
      expect(link).to.match(/^<\/api\/public\/v1\/brands\/linked\/options\?name=A&limit=1&cursor=[^>]+>; rel="next"$/);
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
