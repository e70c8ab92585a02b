import { expect } from 'chai';
import type { Include } from '../../../src/engine/definition/resource.ts';
import { FIELDS_SCHEMA, parseFields, projectRecord } from '../../../src/engine/request/sparse-fields.ts';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { operationParameters } from '../../support/operation-parameters.ts';
import { useServer } from '../../support/use-server.ts';
import { expectErrorBody } from '../../support/error-body.ts';

/** `fields=a,b`: a sparse field set on every list and get; without it, records are whole. */
describe('sparse field sets (fields=)', () => {
  let key: string;
  let product: Record<string, any>;

  const server = useServer();
  beforeEach(async () => {
    const fresh = await resetToBrand();
    key = fresh.key;
    product = (await insert('products', fresh.brand.id, [{ code: 'P-1', name: 'Parka', status: 'active' }]))[0]!;
    await insert('skus', fresh.brand.id, [{ productId: product!.id, code: 'P-1-S' }, { productId: product!.id, code: 'P-1-M' }]);
  });

  it('keeps only the named fields, in the record order, on a list', async () => {
    const response = await server.request('/brands/acme/products?fields=name,id,code', { key });
    expect(response.status, response.text).to.equal(200);
    expect(Object.keys(response.body)).to.deep.equal(['items', 'nextCursor', 'totalItems']);
    expect(response.body.items).to.deep.equal([{ id: product.id, code: 'P-1', name: 'Parka' }]);
    expect(response.text).to.contain('"items":[{"id":');
  });

  it('keeps only the named fields on a get, and the includes asked for', async () => {
    const response = await server.request(`/brands/acme/products/${product.id}?fields=code&include=skus`, { key });
    expect(response.status, response.text).to.equal(200);
    expect(Object.keys(response.body)).to.deep.equal(['code', 'skus']);
    expect(response.body.skus.map((sku: { code: string }) => sku.code)).to.deep.equal(['P-1-S', 'P-1-M']);
    // Included records are whole.
    expect(response.body.skus[0]).to.have.property('productId', product.id);
  });

  it('leaves the default response whole', async () => {
    const whole = await server.request(`/brands/acme/products/${product.id}`, { key });
    const resource = server.registry.get('products');
    expect(Object.keys(whole.body)).to.deep.equal(resource.recordFields.map((field) => field.name));
  });

  it('refuses unknown and empty names with invalid_parameter, suggesting the field meant', async () => {
    const typo = await server.request('/brands/acme/products?fields=id,nmae', { key });
    expect(typo.status).to.equal(400);
    expectErrorBody(typo.body, 'invalid_parameter', { details: 'required' });
    expect(typo.body.details).to.deep.equal([{ parameter: 'fields', message: "'nmae' is not a field of products (did you mean 'name'?)" }]);
    for (const bad of ['', ',', 'id,,code', 'skus']) {
      const response = await server.request(`/brands/acme/products/${product.id}?fields=${bad}`, { key });
      expect(response.status, bad).to.equal(400);
      expect(response.body.details[0].parameter, bad).to.equal('fields');
    }
    const twice = await server.request('/brands/acme/products?fields=id&fields=code', { key });
    expect(twice.status).to.equal(400);
  });

  it('is kept by the Link header to the next page, and the cursor works with another field set', async () => {
    const acme = await testDatabase();
    const brand = await acme.db('brands').where({ slug: 'acme' }).first('id');
    await insert('products', brand.id, [{ code: 'P-2', name: 'Vest' }]);
    const first = await server.request('/brands/acme/products?fields=code&limit=1', { key });
    expect(first.headers.get('link')).to.match(/fields=code/);
    const next = await server.request(`/brands/acme/products?fields=name&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key });
    expect(next.status, next.text).to.equal(200);
    expect(next.body.items).to.deep.equal([{ name: 'Vest' }]);
  });

  it('is declared on every list and get of the OpenAPI document, naming the fields', async () => {
    const doc = (await server.request('/openapi.json', { key: null })).body;
    for (const resource of server.registry.resources) {
      const paths = resource.scope === 'tenant'
        ? [`/${resource.path}/{brand}`]
        : [`/brands/{brand}/${resource.path}`, `/brands/{brand}/${resource.path}/{id}`];
      for (const path of paths) {
        expect(operationParameters(doc, path).some((p) => p.name === 'fields'), `${path}`).to.equal(true);
      }
    }
  });
});

describe('parseFields and projectRecord', () => {
  const family = { path: 'products', fieldNames: ['id', 'code', 'name', 'status'] };

  it('keeps the known names in the family\'s order, once each, whatever order and repeats were asked', () => {
    expect(parseFields('name, id,name', family)).to.deep.equal({ fields: ['id', 'name'], issues: [] });
  });

  it('gives one issue for the first bad name, suggesting the field meant, and no fields', () => {
    expect(parseFields('id,nmae,colour', family)).to.deep.equal({
      fields: null,
      issues: [{ parameter: 'fields', message: "'nmae' is not a field of products (did you mean 'name'?)" }],
    });
    expect(parseFields('id,,code', family).issues).to.deep.equal([{ parameter: 'fields', message: 'must list field names separated by commas, with none empty' }]);
  });

  it('refuses a list longer than its schema allows, even of known names', () => {
    const long = Array.from({ length: 1000 }, () => 'id').join(',');
    expect(long.length).to.be.above(Number(FIELDS_SCHEMA.maxLength));
    expect(parseFields(long, family)).to.deep.equal({ fields: null, issues: [{ parameter: 'fields', message: 'must be at most 2048 characters' }] });
  });

  it('projects a record on the chosen fields and the includes asked for; without fields, the record is as it was', () => {
    const record = { id: 'p1', code: 'P-1', name: 'Parka', status: 'active', skus: [{ id: 's1' }] };
    const skus = { name: 'skus' } as Include;
    expect(projectRecord(record, ['id', 'name'], [skus])).to.deep.equal({ id: 'p1', name: 'Parka', skus: [{ id: 's1' }] });
    expect(projectRecord(record, ['code'], [])).to.deep.equal({ code: 'P-1' });
    expect(projectRecord(record, null, [skus])).to.equal(record);
  });
});
