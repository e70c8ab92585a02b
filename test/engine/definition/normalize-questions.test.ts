import { expect } from 'chai';
import { definitionChecks } from '../../../src/engine/definition/definition-checks.ts';
import { normalizeQuestion, type Question } from '../../../src/engine/definition/normalize-questions.ts';
import { normalizeResource } from '../../../src/engine/definition/normalize-resource.ts';
import type { Field } from '../../../src/engine/definition/resource.ts';
import type { ResourceDefinition, Scope } from '../../../src/engine/definition/resource-definition.ts';
import { definitionFailure } from './definition-failure.ts';

const field = (name: string, more: Partial<Field> = {}): Field => ({
  name, type: 'string', column: name, join: null, sourceColumn: name, nullable: true, values: null,
  references: null, unique: false, hidden: false, description: null, ...more,
});
const fields: readonly Field[] = [
  field('id', { type: 'uuid', nullable: false }),
  field('code'),
  field('status', { type: 'enum', values: ['a', 'b'] }),
  field('supplierId', { type: 'uuid' }),
  field('quantity', { type: 'integer' }),
  field('amount', { type: 'decimal' }),
  field('dueOn', { type: 'date' }),
  field('shippedAt', { type: 'timestamp' }),
  field('urgent', { type: 'boolean' }),
  field('specs', { type: 'json' }),
  field('secret', { hidden: true }),
  field('categoryName', { join: 'category', column: null, sourceColumn: 'name' }),
  field('createdAt', { type: 'timestamp', nullable: false, column: 'created_at', sourceColumn: 'created_at' }),
  field('updatedAt', { type: 'timestamp', nullable: false, column: 'updated_at', sourceColumn: 'updated_at' }),
];

const ask = (question: Question, declared: unknown, scope: Scope = 'brand') =>
  normalizeQuestion({ question, declared: declared as string[] | undefined, fields, scope, checks: definitionChecks('widgets') }).map((f) => f.name);
const failure = (question: Question, declared: unknown, scope: Scope = 'brand'): string => definitionFailure(() => ask(question, declared, scope));

describe('normalizeQuestion (sorts, ranges, countable)', () => {
  it('gives createdAt and updatedAt to sorts and ranges without a declaration, then the declared fields in order', () => {
    expect(ask('sorts', undefined)).to.deep.equal(['createdAt', 'updatedAt']);
    expect(ask('sorts', ['code', 'amount', 'dueOn', 'status', 'quantity', 'shippedAt'])).to.deep.equal(['createdAt', 'updatedAt', 'code', 'amount', 'dueOn', 'status', 'quantity', 'shippedAt']);
    expect(ask('ranges', ['dueOn', 'amount', 'quantity', 'shippedAt'])).to.deep.equal(['createdAt', 'updatedAt', 'dueOn', 'amount', 'quantity', 'shippedAt']);
    // Counts need a declaration for every field.
    expect(ask('countable', undefined)).to.deep.equal([]);
    expect(ask('countable', ['status', 'supplierId', 'urgent', 'quantity', 'dueOn', 'code'])).to.deep.equal(['status', 'supplierId', 'urgent', 'quantity', 'dueOn', 'code']);
  });

  it('gives updatedAt only to a family whose record has it as a timestamp column', () => {
    const without = fields.filter((f) => f.name !== 'updatedAt');
    expect(normalizeQuestion({ question: 'sorts', declared: [], fields: without, scope: 'brand', checks: definitionChecks('w') }).map((f) => f.name)).to.deep.equal(['createdAt']);
  });

  it('names the family, the key and the field of every mistake, with a suggestion for a typo', () => {
    expect(failure('sorts', ['cdoe'])).to.equal("resources/widgets.ts: sorts[0]: no field 'cdoe' (did you mean 'code'?)");
    expect(failure('ranges', ['dueOn', 'code'])).to.equal("resources/widgets.ts: ranges[1]: 'code' is a string field: a range compares dates, timestamps, integers or decimals");
    expect(failure('countable', ['specs'])).to.match(/^resources\/widgets\.ts: countable\[0\]: 'specs' is a json field: counts group by/);
    expect(failure('countable', ['amount'])).to.match(/'amount' is a decimal field/);
    expect(failure('countable', ['shippedAt'])).to.match(/'shippedAt' is a timestamp field/);
    expect(failure('sorts', ['supplierId'])).to.match(/'supplierId' is a uuid field: a sort orders strings/);
    expect(failure('sorts', ['urgent'])).to.match(/'urgent' is a boolean field/);
    expect(failure('sorts', ['specs'])).to.match(/'specs' is a json field/);
  });

  it('refuses a hidden field, a field read from a join, one listed twice, createdAt or updatedAt listed, and any list on the tenant family', () => {
    expect(failure('countable', ['secret'])).to.match(/countable\[0\]: 'secret' is hidden/);
    expect(failure('sorts', ['categoryName'])).to.match(/sorts\[0\]: 'categoryName' is read from the join 'category': only a column of this table has an index/);
    expect(failure('sorts', ['code', 'code'])).to.match(/sorts\[1\]: 'code' is listed twice/);
    expect(failure('ranges', ['createdAt'])).to.match(/ranges\[0\]: 'createdAt' is in ranges of every family that has it: leave it out/);
    expect(failure('sorts', ['updatedAt'])).to.match(/sorts\[0\]: 'updatedAt' is in sorts/);
    expect(failure('countable', ['code'], 'tenant')).to.equal('resources/widgets.ts: countable: the tenant family has no list to ask');
    expect(ask('sorts', undefined, 'tenant')).to.deep.equal([]);
    expect(failure('sorts', 'code')).to.equal('resources/widgets.ts: sorts: list field names');
  });

  it('is part of a normalized family: sorts, ranges (and their four filters each) and countable fields, checked at start', () => {
    const definition: ResourceDefinition = {
      path: 'widgets',
      scope: 'brand',
      area: 'orders',
      fields: {
        id: { type: 'uuid' }, code: { type: 'string' }, amount: { type: 'decimal' }, status: { type: 'string' },
        createdAt: { type: 'timestamp', nullable: false },
      },
      sorts: ['code', 'amount'],
      ranges: ['amount'],
      countable: ['status'],
    };
    const widgets = normalizeResource(definition, { definitions: new Map([['widgets', definition]]) });
    expect(widgets.area).to.equal('orders');
    expect(widgets.sorts.map((f) => f.name)).to.deep.equal(['createdAt', 'code', 'amount']);
    expect(widgets.ranges.map((f) => f.name)).to.deep.equal(['createdAt', 'amount']);
    expect(widgets.countable.map((f) => f.name)).to.deep.equal(['status']);
    expect(widgets.filters.map((f) => `${f.name}:${f.match}`)).to.deep.equal([
      'createdSince:since',
      'createdAt[gte]:gte', 'createdAt[gt]:gt', 'createdAt[lte]:lte', 'createdAt[lt]:lt',
      'amount[gte]:gte', 'amount[gt]:gt', 'amount[lte]:lte', 'amount[lt]:lt',
    ]);
    const bad = { ...definition, countable: ['statsu'] };
    expect(definitionFailure(() => normalizeResource(bad, { definitions: new Map([['widgets', bad]]) })))
      .to.equal("resources/widgets.ts: countable[0]: no field 'statsu' (did you mean 'status'?)");
  });

  it('requires an area of the seven, naming them', () => {
    const definition = { path: 'widgets', scope: 'brand', fields: { id: { type: 'uuid' }, createdAt: { type: 'timestamp', nullable: false } } } as unknown as ResourceDefinition;
    const failing = (area: unknown) => definitionFailure(() => normalizeResource({ ...definition, area } as ResourceDefinition, { definitions: new Map([['widgets', definition]]) }));
    expect(failing(undefined)).to.equal("resources/widgets.ts: area: name the family's area, one of catalog, sourcing, orders, logistics, finance, documents, reference");
    expect(failing('finace')).to.equal("resources/widgets.ts: area: unknown area 'finace' (did you mean 'finance'?)");
  });
});
