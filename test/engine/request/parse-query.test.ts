import { expect } from 'chai';
import { compileRegistry } from '../../../src/engine/compile/compile-registry.ts';
import { ApiError } from '../../../src/engine/request/api-error.ts';
import { parseQuery, toListRequest, type RawQuery } from '../../../src/engine/request/parse-query.ts';
import { testDatabase } from '../../support/test-database.ts';

async function parse(path: string, query: RawQuery) {
  const { registry } = await testDatabase();
  const family = compileRegistry(registry).get(path)!;
  return toListRequest(parseQuery({ query, schema: family.listSchema, validate: family.validateList, family }));
}

async function rejection(path: string, query: RawQuery): Promise<ApiError> {
  const error = await parse(path, query).then(() => null, (e: unknown) => e);
  expect(error).to.be.instanceOf(ApiError);
  return error as ApiError;
}

describe('parseQuery', () => {
  it('converts integers strictly and fills the default limit', async () => {
    expect(await parse('carton-sizes', {})).to.deep.equal({ limit: 25, cursor: null, filters: {}, includes: [], fields: null });
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
    const error = await rejection('products', { stauts: 'x', limit: '0', code: ['a', 'b'], category: 'nope' });
    expect(error.details).to.deep.equal([
      { parameter: 'stauts', message: "is not a parameter of this route (did you mean 'status'?)" },
      { parameter: 'code', message: 'must be given at most once' },
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
});
