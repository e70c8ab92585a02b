import { expect } from 'chai';
import { definitionChecks } from '../../../src/engine/definition/definition-checks.ts';
import { normalizeFields } from '../../../src/engine/definition/normalize-fields.ts';
import type { Join } from '../../../src/engine/definition/resource.ts';
import type { FieldDefinition, ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { definitionFailure } from './definition-failure.ts';

const gadgets: ResourceDefinition = { path: 'gadgets', scope: 'brand', area: 'catalog', fields: { id: { type: 'uuid' } } };
const joins: Record<string, Join> = {
  gadget: { name: 'gadget', table: 'gadgets', localColumn: 'gadget_id', foreignColumn: 'id', scope: 'brand' },
};
const base: Record<string, FieldDefinition> = {
  id: { type: 'uuid' },
  name: { type: 'string' },
  gadgetId: { type: 'uuid', references: 'gadgets' },
  createdAt: { type: 'timestamp', nullable: false },
};

function fields(declared: Record<string, unknown>) {
  return normalizeFields({
    declared: declared as Record<string, FieldDefinition>,
    joins,
    definitions: new Map([['gadgets', gadgets]]),
    checks: definitionChecks('widgets'),
  });
}

const failure = (declared: Record<string, unknown>): string => definitionFailure(() => fields(declared));

describe('normalizeFields', () => {
  it('fills defaults in declared order: columns in snake case, nullable but the id, frozen', () => {
    const normalized = fields(base);
    expect(normalized.map((f) => [f.name, f.column, f.sourceColumn, f.join, f.nullable])).to.deep.equal([
      ['id', 'id', 'id', null, false],
      ['name', 'name', 'name', null, true],
      ['gadgetId', 'gadget_id', 'gadget_id', null, true],
      ['createdAt', 'created_at', 'created_at', null, false],
    ]);
    expect(normalized[2]).to.deep.include({ references: 'gadgets', unique: false, hidden: false, values: null, description: null });
    expect(Object.isFrozen(normalized)).to.equal(true);
    expect(Object.isFrozen(normalized[0])).to.equal(true);
    expect(fields({ ...base, id: { type: 'uuid', nullable: true } })[0]!.nullable).to.equal(false);
  });

  it('reads a field from a join: no column of its own', () => {
    const [label] = fields({ gadgetLabel: { type: 'string', from: 'gadget.label' } });
    expect(label).to.deep.include({ column: null, join: 'gadget', sourceColumn: 'label' });
  });

  it('names the key and suggests the close name', () => {
    expect(failure({ ...base, name: { type: 'strng' } })).to.equal("resources/widgets.ts: fields.name.type: unknown type 'strng' (did you mean 'string'?)");
    expect(failure({ ...base, name: { type: 'string', colum: 'x' } })).to.equal("resources/widgets.ts: fields.name.colum: unknown key 'colum' (did you mean 'column'?)");
    expect(failure({ ...base, gadgetId: { type: 'uuid', references: 'gadget' } }))
      .to.equal("resources/widgets.ts: fields.gadgetId.references: no family 'gadget' (did you mean 'gadgets'?)");
    expect(failure({ label: { type: 'string', from: 'gadgt.label' } })).to.equal("resources/widgets.ts: fields.label.from: no join 'gadgt' (did you mean 'gadget'?)");
  });

  it('refuses what the engine cannot serve', () => {
    expect(failure({})).to.equal('resources/widgets.ts: fields: a family needs fields');
    expect(failure({ Name: { type: 'string' } })).to.equal('resources/widgets.ts: fields.Name: a field name is camelCase');
    expect(failure({ ...base, brandId: { type: 'uuid' } })).to.equal('resources/widgets.ts: fields.brandId.column: brand_id belongs to the engine and is never a field');
    expect(failure({ ...base, other: { type: 'string', column: 'name' } })).to.equal("resources/widgets.ts: fields.other.column: column 'name' is declared twice");
    expect(failure({ ...base, name: { type: 'string', column: 'Name' } })).to.equal("resources/widgets.ts: fields.name.column: 'Name' is not a column name");
    expect(failure({ ...base, kind: { type: 'enum' } })).to.match(/fields\.kind\.values: an enum lists its values/);
  });

  it('refuses a joined field with a column, references or uniqueness of its own, or a malformed from', () => {
    for (const extra of [{ column: 'x' }, { references: 'gadgets' }, { unique: true }]) {
      expect(failure({ label: { type: 'string', from: 'gadget.label', ...extra } }))
        .to.equal("resources/widgets.ts: fields.label: a field read 'from' a join has no column, references or unique of its own");
    }
    expect(failure({ label: { type: 'string', from: 'gadget' } })).to.equal("resources/widgets.ts: fields.label.from: write '<join>.<column>'");
    expect(failure({ label: { type: 'string', from: 'gadget.a.b' } })).to.equal("resources/widgets.ts: fields.label.from: write '<join>.<column>'");
    expect(failure({ label: { type: 'string', from: 'gadget.La bel' } })).to.equal("resources/widgets.ts: fields.label.from: 'La bel' is not a column name");
  });
});
