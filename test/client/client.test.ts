import { expect } from 'chai';
import { ApiError, createClient, type Page, type Product, type Sku } from '../../client/src/index.ts';
import { createBrand, createTestKey, insert } from '../support/fixtures.ts';
import { requestsTo, useClientApi } from './use-client-api.ts';

/** The error a promise rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError, but the call succeeded');
}

describe('client: createClient over the real API', () => {
  const api = useClientApi();

  async function sevenProducts(): Promise<Record<string, any>[]> {
    return insert('products', api.brand.id, Array.from({ length: 7 }, (_, i) => ({ code: `P-${i + 1}`, name: `Product ${i + 1}`, status: i % 2 === 0 ? 'approved' : 'draft' })));
  }

  describe('list', () => {
    it('walks every page: 7 records with limit 3 are 3 pages, every record once, in order', async () => {
      const products = await sevenProducts();
      const pages: Page<Product>[] = [];
      for await (const page of api.client.list('products', { limit: 3 }).pages()) pages.push(page);

      expect(pages.map((page) => page.items.length)).to.deep.equal([3, 3, 1]);
      expect(pages.map((page) => page.totalItems)).to.deep.equal([7, 7, 7]);
      expect(pages[0]!.cursor).to.equal(null);
      expect(pages[1]!.cursor).to.equal(pages[0]!.nextCursor).and.be.a('string');
      expect(pages[2]!.cursor).to.equal(pages[1]!.nextCursor);
      expect(pages[2]!.nextCursor).to.equal(null);
      expect(pages.flatMap((page) => page.items.map((item) => item.id))).to.deep.equal(products.map((p) => p.id));
      expect(requestsTo(api.server, '/brands/acme/products')).to.have.length(3);
    });

    it('is an async iterator over every record, and each iteration walks again from the start', async () => {
      const products = await sevenProducts();
      const list = api.client.list('products', { limit: 3 });
      const codes: string[] = [];
      for await (const product of list) codes.push(product.code!);
      expect(codes).to.deep.equal(products.map((p) => p.code));
      expect((await list.toArray()).map((p) => p.code)).to.deep.equal(codes);
    });

    it('starts from a given cursor, with the same filters, and the page size may change', async () => {
      const products = await sevenProducts();
      const [, second] = await collectPages(api.client.list('products', { limit: 3 }));
      const rest = await api.client.list('products', { limit: 2, cursor: second!.cursor }).toArray();
      expect(rest.map((p) => p.id)).to.deep.equal(products.slice(3).map((p) => p.id));
    });

    it('sends the filters and keeps them on every page', async () => {
      const products = await sevenProducts();
      const approved = products.filter((p) => p.status === 'approved');
      const pages = await collectPages(api.client.list('products', { filters: { status: 'approved' }, limit: 1 }));
      expect(pages).to.have.length(4);
      expect(pages.every((page) => page.totalItems === 4)).to.equal(true);
      expect(pages.flatMap((page) => page.items.map((p) => p.id))).to.deep.equal(approved.map((p) => p.id));

      const found = await api.client.list('products', { filters: { code: 'P-2', search: undefined } }).toArray();
      expect(found.map((p) => p.id)).to.deep.equal([products[1]!.id]);
    });

    it('sends include and returns the related records on each record', async () => {
      const [tee, mug] = await insert('products', api.brand.id, [{ code: 'TEE' }, { code: 'MUG' }]);
      const skus = await insert('skus', api.brand.id, [
        { productId: tee!.id, code: 'TEE-S' },
        { productId: tee!.id, code: 'TEE-M' },
      ]);
      const products = await api.client.list('products', { include: ['skus', 'versions'] }).toArray();
      // The include is typed as present: no optional chaining needed.
      const skuCodes = (product: { skus: Sku[] }): (string | null)[] => product.skus.map((sku) => sku.code);
      expect(products.map((p) => p.id)).to.deep.equal([tee!.id, mug!.id]);
      expect(skuCodes(products[0]!)).to.deep.equal(['TEE-S', 'TEE-M']);
      expect(products[0]!.skus.map((sku) => sku.id)).to.deep.equal(skus.map((sku) => sku.id));
      expect(products[1]!.skus).to.deep.equal([]);
      expect(products[0]!.versions).to.deep.equal([]);

      const withoutInclude = await api.client.list('products').toArray();
      expect(withoutInclude[0]).to.not.have.property('skus');
    });

    it('sends a sparse field set and an updatedSince filter', async () => {
      const products = await sevenProducts();
      const slim = await api.client.list('products', { fields: ['code', 'id'], filters: { updatedSince: '2000-01-01T00:00:00Z' }, limit: 4 }).toArray();
      // Typed as Pick<Product, 'code' | 'id'>: only those keys, in the record's order.
      const keys: ('id' | 'code')[][] = slim.map((p) => Object.keys(p) as ('id' | 'code')[]);
      expect(keys.every((k) => k.join() === 'id,code')).to.equal(true);
      expect(slim.map((p) => p.code)).to.deep.equal(products.map((p) => p.code));
      const none = await api.client.list('products', { filters: { updatedSince: '2999-01-01T00:00:00Z' } }).toArray();
      expect(none).to.deep.equal([]);
      const one = await api.client.get('products', products[0]!.id, { fields: ['name'] });
      expect(one).to.deep.equal({ name: products[0]!.name });
    });

    it('asks for an order, any of several values, and ranges, and keeps them on every page', async () => {
      await insert('orders', api.brand.id, [
        { code: 'PO-1', status: 'draft', orderedOn: '2026-01-05', totalAmount: '100.00' },
        { code: 'PO-2', status: 'issued', orderedOn: '2026-01-20', totalAmount: '40.50' },
        { code: 'PO-3', status: 'closed', orderedOn: '2026-01-25', totalAmount: '999.00' },
        { code: 'PO-4', status: 'issued', orderedOn: '2026-02-02', totalAmount: '12.00' },
        { code: 'PO-5', status: 'draft', orderedOn: null, totalAmount: null },
      ]);
      const urls: string[] = [];
      const client = api.clientWith({ fetch: (input, init) => { urls.push(String(input)); return fetch(input, init); } });
      const pages = await collectPages(client.list('orders', {
        sort: '-totalAmount',
        filters: { status: ['draft', 'issued'], orderedOn: { gte: '2026-01-01', lt: '2026-02-01' } },
        limit: 1,
      }));
      expect(pages.flatMap((page) => page.items.map((order) => order.code))).to.deep.equal(['PO-1', 'PO-2']);
      expect(urls).to.have.length(2);
      expect(urls[0]).to.match(/\/orders\?status=draft&status=issued&orderedOn%5Bgte%5D=2026-01-01&orderedOn%5Blt%5D=2026-02-01&sort=-totalAmount&limit=1$/);
      expect(urls[1]).to.match(/&sort=-totalAmount&limit=1&cursor=/);
      // Newest first, and a null sorted first descending.
      const newest = await api.client.list('orders', { sort: '-orderedOn' }).toArray();
      expect(newest.map((order) => order.code)).to.deep.equal(['PO-5', 'PO-4', 'PO-3', 'PO-2', 'PO-1']);
    });

    it('counts by value with the list\'s filters', async () => {
      await insert('orders', api.brand.id, [{ status: 'draft' }, { status: 'issued' }, { status: 'draft' }, { status: null }]);
      const counts = await api.client.counts('orders', { by: 'status' });
      expect(counts).to.deep.equal({ by: 'status', counts: [{ value: 'draft', count: 2 }, { value: 'issued', count: 1 }, { value: null, count: 1 }], otherItems: 0, totalItems: 4 });
      const drafts = await api.client.orders.counts({ by: 'status', filters: { status: ['draft', 'closed'] } });
      expect(drafts.counts).to.deep.equal([{ value: 'draft', count: 2 }]);
      // @ts-expect-error: code is not a countable field of orders
      const error = await rejection(api.client.counts('orders', { by: 'code' }));
      expect(error.errorCode).to.equal('invalid_parameter');
    });

    it('sends nothing until it is iterated', async () => {
      api.client.list('products');
      await new Promise((resolve) => setImmediate(resolve));
      expect(requestsTo(api.server, '/brands/acme/products')).to.have.length(0);
    });
  });

  describe('get', () => {
    it('returns the record, with its includes when asked', async () => {
      const [product] = await insert('products', api.brand.id, [{ code: 'TEE', name: 'Tee' }]);
      const [sku] = await insert('skus', api.brand.id, [{ productId: product!.id, code: 'TEE-S' }]);
      const plain = await api.client.get('products', product!.id);
      const [listed] = await api.client.list('products').toArray();
      expect(plain).to.deep.equal(listed);
      expect(plain.code).to.equal('TEE');
      const withSkus = await api.client.get('products', product!.id, { include: ['skus'] });
      expect(withSkus.skus.map((s) => s.id)).to.deep.equal([sku!.id]);
      const skuWithProduct = await api.client.get('skus', sku!.id, { include: ['product'] });
      expect(skuWithProduct.product?.id).to.equal(product!.id);
    });

    it('reads the brand itself with getBrand', async () => {
      const brand = await api.client.getBrand();
      expect(brand).to.include({ id: api.brand.id, slug: 'acme' });
    });

    it('throws ApiError not_found (404) with the request id the server gave', async () => {
      const missing = '00000000-0000-4000-8000-000000000000';
      const error = await rejection(api.client.get('products', missing));
      expect(error.status).to.equal(404);
      expect(error.errorCode).to.equal('not_found');
      const [logged] = requestsTo(api.server, `/brands/acme/products/${missing}`);
      expect(error.requestId).to.be.a('string').and.equal(logged!.requestId);
      expect(error.message).to.contain('404 not_found').and.contain(`[request ${error.requestId}]`);
    });
  });

  describe('errors', () => {
    it('a bad key is unauthorized (401)', async () => {
      const error = await rejection(api.clientWith({ apiKey: 'bcat_sk_not-a-real-key' }).list('products').toArray());
      expect(error.status).to.equal(401);
      expect(error.errorCode).to.equal('unauthorized');
      expect(error.keyRefusal).to.equal('malformed');
    });

    it('a key of another brand is unauthorized, an unknown brand not_found', async () => {
      await createBrand('globex');
      const { key } = await createTestKey({ brands: ['globex'] });
      const refused = await rejection(api.clientWith({ apiKey: key }).getBrand());
      expect(refused.errorCode).to.equal('unauthorized');
      expect(refused.keyRefusal).to.equal('brand_not_allowed');
      expect((await rejection(api.clientWith({ brand: 'no-such-brand' }).getBrand())).errorCode).to.equal('not_found');
    });

    it('a key restricted to an area, asked a family outside it, is unauthorized with family_not_allowed', async () => {
      const { key } = await createTestKey({ brands: ['acme'], areas: ['logistics'] });
      const refused = await rejection(api.clientWith({ apiKey: key }).list('products').toArray());
      expect(refused.status).to.equal(401);
      expect(refused.keyRefusal).to.equal('family_not_allowed');
      expect(await api.clientWith({ apiKey: key }).list('shipments').toArray()).to.be.an('array');
    });

    it('an invalid parameter is invalid_parameter (400) with the details of each one', async () => {
      const error = await rejection(
        api.client.list('products', { limit: 500, filters: { category: 'not-a-uuid' } }).toArray(),
      );
      expect(error.status).to.equal(400);
      expect(error.errorCode).to.equal('invalid_parameter');
      expect(error.parameterIssues.map((issue) => issue.parameter).sort()).to.deep.equal(['category', 'limit']);
      expect(error.details).to.deep.equal(error.parameterIssues);
      expect(error.message).to.match(/limit: /).and.match(/category: /);
    });

    it('a filter or include the types refuse is refused by the server too', async () => {
      // @ts-expect-error: products has no filter 'stauts'
      const filter = await rejection(api.client.list('products', { filters: { stauts: 'approved' } }).toArray());
      expect(filter.errorCode).to.equal('invalid_parameter');
      expect(filter.parameterIssues[0]!.message).to.contain("did you mean 'status'");
      // @ts-expect-error: 'sku' is not an include of products
      const include = await rejection(api.client.get('products', '00000000-0000-4000-8000-000000000000', { include: ['sku'] }));
      expect(include.errorCode).to.equal('unsupported_include');
      // @ts-expect-error: the brand has no list route
      const tenant = await rejection(api.client.list('brands').toArray());
      expect(tenant.errorCode).to.equal('not_found');
    });
  });

  describe('baseUrl', () => {
    it('takes the origin or the API base, with or without a trailing slash', async () => {
      await insert('carton-sizes', api.brand.id, [{ name: 'Small' }]);
      for (const baseUrl of [api.server.origin, `${api.server.origin}/`, api.server.baseUrl, `${api.server.baseUrl}/`]) {
        const client = createClient({ baseUrl, apiKey: api.key, brand: 'acme' });
        expect((await client.list('carton-sizes').toArray()).map((c) => c.name), baseUrl).to.deep.equal(['Small']);
      }
    });

    it('refuses options that cannot work before sending anything', () => {
      expect(() => api.clientWith({ maxRetries: -1 })).to.throw(RangeError, /maxRetries/);
      expect(() => api.clientWith({ baseUrl: 'not a url' })).to.throw(TypeError);
      expect(() => api.clientWith({ apiKey: '' })).to.throw(TypeError, /apiKey/);
    });
  });
});

async function collectPages<R>(list: { pages(): AsyncIterable<Page<R>> }): Promise<Page<R>[]> {
  const pages: Page<R>[] = [];
  for await (const page of list.pages()) pages.push(page);
  return pages;
}
