import { expect } from 'chai';
import { compileSchema } from '../../../src/engine/compile/compile-schema.ts';
import { FIELD_TYPES } from '../../../src/engine/compile/field-types.ts';
import {
  DEFAULT_LIMIT,
  ERROR_SCHEMA,
  fieldSchema,
  filterSchemas,
  LIMIT_SCHEMA,
  listEnvelopeSchema,
  listQuerySchema,
  MAX_LIMIT,
  recordSchema,
} from '../../../src/engine/compile/schemas.ts';
import { createRegistry, type Registry } from '../../../src/engine/definition/registry.ts';

const TIMESTAMP = { type: 'timestamp', nullable: false } as const;

describe('schemas derived from a family', () => {
  let registry: Registry;
  before(() => {
    registry = createRegistry([
      { path: 'brands', scope: 'tenant', area: 'catalog', fields: { id: { type: 'uuid' }, slug: { type: 'string', nullable: false, unique: true }, createdAt: TIMESTAMP } },
      {
        path: 'widgets',
        scope: 'brand', area: 'catalog',
        fields: {
          id: { type: 'uuid' },
          code: { type: 'string', nullable: false, description: 'The code on the label.' },
          status: { type: 'enum', values: ['active', 'archived'] },
          weightG: { type: 'integer' },
          internalRef: { type: 'string', hidden: true },
          createdAt: TIMESTAMP,
          updatedAt: TIMESTAMP,
        },
        filters: { code: { field: 'code', match: 'exact' }, status: { field: 'status', match: 'exact' }, search: { fields: ['code'], match: 'contains-ci' } },
      },
    ]);
  });

  it('gives a field its type\'s schema, with its values, null when nullable, and its description', () => {
    const widgets = registry.get('widgets');
    const field = (name: string) => widgets.fields.find((f) => f.name === name)!;
    expect(fieldSchema(field('code'))).to.deep.equal({ type: 'string', description: 'The code on the label.' });
    expect(fieldSchema(field('status'))).to.deep.equal({ type: ['string', 'null'], enum: ['active', 'archived', null] });
    expect(fieldSchema(field('weightG'))).to.deep.equal({ type: ['integer', 'null'] });
    expect(FIELD_TYPES.integer.valueSchema, 'the type\'s own schema is left as it was').to.deep.equal({ type: 'integer' });
  });

  it('makes a record exactly its record fields, every one present, hidden ones left out', () => {
    const validate = compileSchema(recordSchema(registry.get('widgets')));
    const record = { id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', code: 'W-1', status: null, weightG: 12, createdAt: '2026-03-01T09:00:00.000Z', updatedAt: '2026-03-01T09:00:00.000Z' };
    expect(validate(record), JSON.stringify(validate.errors)).to.equal(true);
    expect(validate({ ...record, internalRef: 'x' }), 'a hidden field').to.equal(false);
    const { weightG: _weightG, ...missing } = record;
    expect(validate(missing), 'a field missing').to.equal(false);
    expect(validate({ ...record, status: 'lost' }), 'a value not listed').to.equal(false);
  });

  it('takes on a list only cursor, limit, sort and the declared filters (include is read apart), the sync filters and range bounds among them', () => {
    const schema = listQuerySchema(registry.get('widgets'));
    const bounds = (field: string) => ['gte', 'gt', 'lte', 'lt'].map((bound) => `${field}[${bound}]`);
    expect(Object.keys(schema.properties as object)).to.deep.equal(['cursor', 'limit', 'sort', 'code', 'status', 'search', 'createdSince', 'updatedSince', ...bounds('createdAt'), ...bounds('updatedAt')]);
    const validate = compileSchema(schema);
    // An exact filter's values come as a list (any of); the request parser makes one of a single value.
    expect(validate({ limit: 25, cursor: 'abc', code: ['W-1'], status: ['active'], search: 'parka' }), JSON.stringify(validate.errors)).to.equal(true);
    expect(validate({ include: 'x' })).to.equal(false);
    expect(validate({ status: ['lost'] })).to.equal(false);
    const filters = filterSchemas(registry.get('widgets'));
    expect(filters.code!.description, 'how each filter matches is said').to.be.a('string').and.not.equal('');
  });

  it('limits pages to 1 to 100 records, 25 by default', () => {
    expect([DEFAULT_LIMIT, MAX_LIMIT]).to.deep.equal([25, 100]);
    expect(LIMIT_SCHEMA).to.include({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT });
  });

  it('makes a list page exactly { items, nextCursor, totalItems }', () => {
    const validate = compileSchema(listEnvelopeSchema({ type: 'object' }));
    expect(validate({ items: [{}], nextCursor: 'abc', totalItems: 1 })).to.equal(true);
    expect(validate({ items: [], nextCursor: null, totalItems: 0 })).to.equal(true);
    expect(validate({ items: [], nextCursor: null, totalItems: -1 })).to.equal(false);
    expect(validate({ items: [], nextCursor: null })).to.equal(false);
    expect(validate({ items: [], nextCursor: null, totalItems: 0, page: 1 })).to.equal(false);
  });

  it('makes an error body exactly { error, errorCode, details? }', () => {
    const validate = compileSchema(ERROR_SCHEMA);
    expect(validate({ error: 'Not found.', errorCode: 'not_found' })).to.equal(true);
    expect(validate({ error: 'Bad.', errorCode: 'invalid_parameter', details: [{ parameter: 'limit', message: 'must be at most 100' }] })).to.equal(true);
    expect(validate({ error: 'Bad.' })).to.equal(false);
    expect(validate({ error: 'Bad.', errorCode: 'x', stack: '...' })).to.equal(false);
  });
});
