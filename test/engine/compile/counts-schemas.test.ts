import { expect } from 'chai';
import { compileSchema } from '../../../src/engine/compile/compile-schema.ts';
import { bySchema, countsBodySchema, countsQuerySchema, MAX_COUNTED_VALUES } from '../../../src/engine/compile/counts-schemas.ts';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';

const brands: ResourceDefinition = { path: 'brands', scope: 'tenant', area: 'reference', fields: { id: { type: 'uuid' }, slug: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } } };
const family = (path: string, countable: string[]): ResourceDefinition => ({
  path,
  scope: 'brand', area: 'catalog',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string', nullable: false, description: 'The code.' },
    status: { type: 'string', description: 'Where it stands.' },
    label: { type: 'string' },
    size: { type: 'integer' },
    createdAt: { type: 'timestamp', nullable: false },
  },
  filters: { status: { field: 'status', match: 'exact' } },
  countable,
});
const registry = createRegistry([brands, family('widgets', ['status', 'size']), family('gadgets', ['status', 'label']), family('plain', [])]);

describe('counts schemas', () => {
  it('takes by as one of the countable fields, in declared order', () => {
    expect(bySchema(registry.get('widgets'))).to.deep.equal({ type: 'string', enum: ['status', 'size'], description: 'The field whose values are counted.' });
  });

  it('takes by and the list\'s filters as the query, nothing else, by required', () => {
    const validate = compileSchema(countsQuerySchema(registry.get('widgets')));
    expect(validate({ by: 'status' })).to.equal(true);
    expect(validate({ by: 'size', status: ['a', 'b'], 'createdAt[gte]': '2026-01-01T00:00:00Z' })).to.equal(true);
    expect(validate({}), 'no by').to.equal(false);
    expect(validate({ by: 'code' }), 'not countable').to.equal(false);
    for (const parameter of ['limit', 'cursor', 'sort', 'include', 'fields']) expect(validate({ by: 'status', [parameter]: 'x' }), parameter).to.equal(false);
  });

  it('takes any by for a family that counts nothing, so that its 400 can name every offending parameter', () => {
    const validate = compileSchema(countsQuerySchema(registry.get('plain')));
    expect(validate({ by: 'status' })).to.equal(true);
    expect(validate({ by: 'status', limit: '1' })).to.equal(false);
  });

  it('holds the body to exactly { by, counts, otherItems, totalItems }, counts of at least 1, values as the record writes them', () => {
    const validate = compileSchema(countsBodySchema(registry.get('widgets')));
    const body = { by: 'status', counts: [{ value: 'open', count: 2 }, { value: 3, count: 1 }, { value: null, count: 1 }], otherItems: 0, totalItems: 4 };
    expect(validate(body), JSON.stringify(validate.errors)).to.equal(true);
    expect(validate({ ...body, by: 'code' }), 'by of no countable field').to.equal(false);
    expect(validate({ ...body, counts: [{ value: 'open', count: 0 }] }), 'a count of 0').to.equal(false);
    expect(validate({ ...body, counts: [{ value: 'open', count: 1, extra: true }] })).to.equal(false);
    expect(validate({ ...body, counts: [{ value: true, count: 1 }] }), 'a value no countable field writes').to.equal(false);
    expect(validate({ ...body, otherItems: -1 })).to.equal(false);
    expect(validate({ by: 'status', counts: [], otherItems: 0 }), 'no totalItems').to.equal(false);
    expect(validate({ ...body, page: 1 })).to.equal(false);
    expect(validate({ ...body, counts: Array.from({ length: MAX_COUNTED_VALUES + 1 }, (_, i) => ({ value: String(i), count: 1 })) }), 'more values than listed').to.equal(false);
  });

  it('writes a value\'s schema once when the countable fields share it, without the fields\' own descriptions', () => {
    const value = (path: string) => ((countsBodySchema(registry.get(path)).properties as any).counts.items.properties.value);
    expect(value('gadgets')).to.deep.equal({ type: ['string', 'null'], description: 'A value of the field, as a record writes it; null for the records without one.' });
    expect(value('widgets').anyOf).to.have.length(2);
    expect(JSON.stringify(value('widgets'))).to.not.contain('Where it stands');
  });
});
