import { expect } from 'chai';
import { definitionChecks } from '../../../src/engine/definition/definition-checks.ts';
import { normalizeFilters, RESERVED_PARAMETERS } from '../../../src/engine/definition/normalize-filters.ts';
import type { Field } from '../../../src/engine/definition/resource.ts';
import type { FilterDefinition, Scope } from '../../../src/engine/definition/resource-definition.ts';
import { definitionFailure } from './definition-failure.ts';

const field = (name: string, more: Partial<Field> = {}): Field => ({
  name, type: 'string', column: name, join: null, sourceColumn: name, nullable: true, values: null,
  references: null, unique: false, hidden: false, description: null, ...more,
});
const fields = [
  field('id', { type: 'uuid' }),
  field('name'),
  field('gadgetId', { type: 'uuid' }),
  field('doc', { type: 'json' }),
  field('createdAt', { type: 'timestamp', sourceColumn: 'created_at' }),
];

const filters = (declared: Record<string, unknown>, scope: Scope = 'brand') => normalizeFilters({
  declared: declared as Record<string, FilterDefinition>, scope, ranges: [], fields, joins: {}, checks: definitionChecks('widgets'),
});
const failure = (declared: Record<string, unknown>): string => definitionFailure(() => filters(declared));

describe('normalizeFilters', () => {
  it('keeps the declared filters in order, then adds the sync filters the fields allow', () => {
    const normalized = filters({ search: { fields: ['name'], match: 'contains-ci', description: 'Words.' }, gadget: { field: 'gadgetId', match: 'exact' } });
    expect(normalized.map((filter) => [filter.name, filter.match, filter.description])).to.deep.equal([
      ['search', 'contains-ci', 'Words.'],
      ['gadget', 'exact', null],
      ['createdSince', 'since', null],
    ]);
    expect(normalized[1]!.targets).to.deep.equal([{ label: 'gadgetId', join: null, column: 'gadgetId', type: 'uuid', values: null }]);
    expect(Object.isFrozen(normalized)).to.equal(true);
    expect(Object.isFrozen(normalized[0])).to.equal(true);
    expect(filters({}, 'tenant')).to.deep.equal([]);
  });

  it('names the key and suggests the close name', () => {
    expect(failure({ name: { field: 'name', match: 'exactly' } })).to.equal("resources/widgets.ts: filters.name.match: unknown match kind 'exactly' (did you mean 'exact'?)");
    expect(failure({ name: { feld: 'name', match: 'exact' } })).to.equal("resources/widgets.ts: filters.name.feld: unknown key 'feld' (did you mean 'field'?)");
  });

  it('refuses what the engine cannot serve', () => {
    expect(RESERVED_PARAMETERS).to.include.members(['cursor', 'limit', 'include', 'fields', 'createdSince', 'updatedSince']);
    expect(failure({ limit: { field: 'name', match: 'exact' } })).to.equal("resources/widgets.ts: filters.limit: 'limit' is a parameter of every list");
    expect(failure({ 'na-me': { field: 'name', match: 'exact' } })).to.equal('resources/widgets.ts: filters.na-me: a filter name is camelCase');
    expect(failure({ name: { match: 'exact' } })).to.equal("resources/widgets.ts: filters.name: give exactly one of 'field', 'fields' or 'column'");
    expect(failure({ name: { field: 'name', fields: ['name'], match: 'exact' } })).to.match(/give exactly one of/);
  });

  it('lets the match kind refuse targets it cannot serve', () => {
    expect(failure({ q: { fields: ['gadgetId'], match: 'contains-ci' } })).to.equal("resources/widgets.ts: filters.q: a 'contains-ci' filter searches string fields only");
    expect(failure({ doc: { field: 'doc', match: 'exact' } })).to.equal('resources/widgets.ts: filters.doc: a json field cannot be matched exactly');
    expect(failure({ name: { field: 'name', match: 'since' } })).to.equal("resources/widgets.ts: filters.name: a 'since' filter compares one timestamp or date field");
  });
});
