import { expect } from 'chai';
import { compileRegistry } from '../../../src/engine/compile/compile-registry.ts';
import { ApiError } from '../../../src/engine/request/api-error.ts';
import { parseQuery, toListRequest, type RawQuery } from '../../../src/engine/request/parse-query.ts';
import { testDatabase } from '../../support/test-database.ts';

/** The registry compiled once for the file: AJV compiles every family's validators, seconds of CPU each time. */
let compiled: ReturnType<typeof compileRegistry> | undefined;

async function parse(path: string, query: RawQuery) {
  const { registry } = await testDatabase();
  compiled ??= compileRegistry(registry);
  const family = compiled.get(path)!;
  return toListRequest(parseQuery({ query, schema: family.listSchema, validate: family.validateList, family }), family);
}

async function rejection(path: string, query: RawQuery): Promise<ApiError> {
  const error = await parse(path, query).then(() => null, (e: unknown) => e);
  expect(error).to.be.instanceOf(ApiError);
  return error as ApiError;
}

describe('parseQuery', () => {
  it('converts integers strictly and fills the default limit', async () => {
    const { sort, ...request } = await parse('carton-sizes', {});
    expect(request).to.deep.equal({ limit: 25, cursor: null, filters: {}, includes: [], fields: null });
    expect(sort).to.include({ name: 'createdAt', descending: false });
    expect((await parse('carton-sizes', { limit: '100' })).limit).to.equal(100);
    for (const limit of ['1e1', ' 5', '0x10', '5.0', '+5', '']) {
      const error = await rejection('carton-sizes', { limit });
      expect(error.errorCode, limit).to.equal('invalid_parameter');
    }
  });

  it('treats inherited property names as unknown parameters', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const query = Object.create(null) as Record<string, string>;
      query[name] = 'x';
      const error = await rejection('carton-sizes', query);
      expect(error.details, name).to.deep.equal([{ parameter: name, message: 'is not a parameter of this route' }]);
    }
  });

  it('lists every offending parameter once, with a suggestion for a near miss', async () => {
    const error = await rejection('products', { stauts: 'x', limit: '0', search: ['a', 'b'], category: 'nope' });
    expect(error.details).to.deep.equal([
      { parameter: 'stauts', message: "is not a parameter of this route (did you mean 'status'?)" },
      { parameter: 'search', message: 'must be given at most once' },
      { parameter: 'limit', message: 'must be at least 1' },
      { parameter: 'category', message: 'must be a lower-case UUID' },
    ]);
  });

  it('reads include apart: known names are deduplicated, unknown ones are unsupported_include', async () => {
    const request = await parse('products', { include: 'versions,relations,versions' });
    expect(request.includes.map((i) => i.name)).to.deep.equal(['versions', 'relations']);
    expect((await rejection('products', { include: 'versoins' })).errorCode).to.equal('unsupported_include');
    expect((await rejection('carton-sizes', { include: 'anything' })).errorCode).to.equal('unsupported_include');
    // A family without includes refuses any include as unsupported, the empty one and an overlong one too (CONTRACT.md §3).
    for (const include of ['', ',', 'x'.repeat(2000)]) {
      const error = await rejection('carton-sizes', { include });
      expect(error.errorCode, JSON.stringify(include)).to.equal('unsupported_include');
      expect(error.details).to.deep.equal([{ parameter: 'include', message: 'carton-sizes has no includes: leave include out' }]);
    }
    expect((await rejection('products', { include: '' })).errorCode).to.equal('invalid_parameter');
    expect((await rejection('products', { include: 'versions,'.repeat(200) })).details).to.deep.equal([
      { parameter: 'include', message: 'must have at most 1024 characters' },
    ]);
  });

  describe('asking more of a list (CONTRACT.md section 8)', () => {
    it('takes any of an exact filter\'s values: each once, in the order given; one value (or one given twice) as before', async () => {
      expect((await parse('products', { status: ['approved', 'draft', 'approved'] })).filters).to.deep.equal({ status: ['approved', 'draft'] });
      expect((await parse('products', { status: ['approved', 'approved'] })).filters).to.deep.equal({ status: 'approved' });
      expect((await parse('products', { status: 'approved' })).filters).to.deep.equal({ status: 'approved' });
      const id = '6f1c1a0e-4a4e-4f55-9a55-0d3b0d4f9a11';
      expect((await parse('products', { category: [id, id.replace('6f', '7f')] })).filters).to.deep.equal({ category: [id, id.replace('6f', '7f')] });
    });

    it('checks each value by the filter\'s rule, and refuses a 101st', async () => {
      const bad = await rejection('products', { category: ['6f1c1a0e-4a4e-4f55-9a55-0d3b0d4f9a11', 'NOPE'] });
      expect(bad.details).to.deep.equal([{ parameter: 'category', message: 'must be a lower-case UUID' }]);
      const many = await rejection('products', { status: Array.from({ length: 101 }, (_, i) => `s${i}`) });
      expect(many.details).to.deep.equal([{ parameter: 'status', message: 'must be given at most 100 times' }]);
      expect((await parse('products', { status: Array.from({ length: 100 }, (_, i) => `s${i}`) })).filters.status).to.have.length(100);
    });

    it('takes a sort the family declares, either way, and names the sorts it takes when it does not', async () => {
      expect((await parse('orders', { sort: '-totalAmount' })).sort).to.include({ name: '-totalAmount', descending: true });
      expect((await parse('orders', { sort: '-totalAmount' })).sort.field.name).to.equal('totalAmount');
      expect((await parse('orders', {})).sort.name).to.equal('createdAt');
      for (const sort of ['name', '--code', ' code', 'code ', '+code', 'Code', '', '-']) {
        const error = await rejection('orders', { sort });
        expect(error.details, sort).to.deep.equal([{ parameter: 'sort', message: 'must be one of: createdAt, -createdAt, updatedAt, -updatedAt, code, -code, orderedOn, -orderedOn, requestedDeliveryOn, -requestedDeliveryOn, totalAmount, -totalAmount' }]);
      }
      expect((await rejection('orders', { sort: ['code', 'code'] })).details).to.deep.equal([{ parameter: 'sort', message: 'must be given at most once' }]);
    });

    it('takes the bounds of a range as filters, each given once, each by its field\'s type', async () => {
      const request = await parse('orders', { 'totalAmount[gte]': '-12.50', 'orderedOn[lt]': '2026-02-01', 'createdAt[gt]': '2026-01-01T00:00:00.000001Z' });
      expect(request.filters).to.deep.equal({ 'totalAmount[gte]': '-12.50', 'orderedOn[lt]': '2026-02-01', 'createdAt[gt]': '2026-01-01T00:00:00.000001Z' });
      for (const [name, value] of [['totalAmount[gte]', '1e400'], ['totalAmount[gte]', 'NaN'], ['totalAmount[lte]', '9'.repeat(200)], ['orderedOn[lt]', '10000-01-01'], ['createdAt[gt]', '2026-01-01T00:00:00'], ['createdAt[gt]', '-4713-01-01T00:00:00Z']] as const) {
        const error = await rejection('orders', { [name]: value });
        expect(error.details, `${name}=${value}`).to.have.length(1);
        expect((error.details as { parameter: string }[])[0]!.parameter).to.equal(name);
      }
      expect((await rejection('orders', { 'totalAmount[gte]': ['1', '2'] })).details).to.deep.equal([{ parameter: 'totalAmount[gte]', message: 'must be given at most once' }]);
      expect((await rejection('orders', { 'code[gte]': 'A' })).details).to.deep.equal([{ parameter: 'code[gte]', message: 'is not a parameter of this route' }]);
      expect((await rejection('orders', { 'totalAmount[GTE]': '1' })).details![0 as never]).to.deep.include({ parameter: 'totalAmount[GTE]' });
    });
  });
});
