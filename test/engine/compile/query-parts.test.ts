import { expect } from 'chai';
import { JsonText } from '../../../src/engine/compile/json-text.ts';
import { LIST_ORDER, queryParts, quoteAlias } from '../../../src/engine/compile/query-parts.ts';
import { utcTimestampJsonSql } from '../../../src/engine/compile/timestamp-sql.ts';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';

const BRAND = '11111111-1111-4111-8111-111111111111';
const gadgets: ResourceDefinition = {
  path: 'gadgets',
  scope: 'shared', area: 'catalog',
  fields: { id: { type: 'uuid' }, label: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } },
};
const widgets: ResourceDefinition = {
  path: 'widgets',
  scope: 'brand', area: 'catalog',
  joins: { gadget: { table: 'gadgets', on: { gadget_id: 'id' } } },
  fields: {
    id: { type: 'uuid' },
    lengthCm: { type: 'decimal' },
    gadgetId: { type: 'uuid', hidden: true },
    gadgetLabel: { type: 'string', from: 'gadget.label' },
    createdAt: { type: 'timestamp', nullable: false },
  },
  filters: { gadget: { field: 'gadgetId', match: 'exact' }, search: { fields: ['gadgetLabel'], match: 'contains-ci' } },
};
const registry = createRegistry([widgets, gadgets]);

describe('queryParts', () => {
  const parts = queryParts(registry.get('widgets'));

  it('selects the record\'s fields, each read as its JSON value under its name, hidden ones left out', () => {
    expect(parts.table).to.equal('"widgets"');
    expect(parts.selectList).to.equal(
      't."id" as "id", t."length_cm"::text as "lengthCm", j_gadget."label" as "gadgetLabel", ' +
        `${utcTimestampJsonSql('t."created_at"')} as "createdAt"`,
    );
  });

  it('decodes what the driver gives as text into the record\'s value: JSON text kept whole, timestamps and dates finished, null as null', () => {
    const notes = queryParts(createRegistry([{
      path: 'notes',
      scope: 'brand', area: 'catalog',
      fields: { id: { type: 'uuid' }, content: { type: 'json' }, due: { type: 'date' }, createdAt: { type: 'timestamp', nullable: false } },
    }]).get('notes'));
    expect(notes.selectList).to.contain('t."content"::text as "content"');
    const rows = notes.decode([
      { id: 'a', content: '{"n": 1.50}', due: '"2026-03-01"', createdAt: '"2026-03-01T09:30:00.5"' },
      { id: 'b', content: null, due: null, createdAt: '"0044-03-15T12:00:00 BC"' },
    ]);
    expect(rows[0]!.content).to.be.instanceOf(JsonText);
    expect((rows[0]!.content as JsonText).text).to.equal('{"n":1.50}');
    expect(rows[0]).to.include({ due: '2026-03-01', createdAt: '2026-03-01T09:30:00.500Z' });
    expect(rows[1]).to.deep.equal({ id: 'b', content: null, due: null, createdAt: '-000043-03-15T12:00:00.000Z' });
  });

  it('joins what the record reads, limited to the rows the brand may see', () => {
    expect(parts.from(BRAND)).to.deep.equal({
      sql: 'from "widgets" t left join "gadgets" j_gadget on j_gadget."id" = t."gadget_id" and (j_gadget."brand_id" = ? or j_gadget."brand_id" is null)',
      bindings: [BRAND],
    });
    expect(queryParts(registry.get('gadgets')).from(BRAND)).to.deep.equal({ sql: 'from "gadgets" t', bindings: [] });
  });

  it('narrows the brand\'s rows by each filter, with every value bound', () => {
    expect(parts.where(BRAND, {})).to.deep.equal({ sql: 't."brand_id" = ?', bindings: [BRAND] });
    expect(parts.where(BRAND, { gadget: 'g' })).to.deep.equal({ sql: 't."brand_id" = ? and t."gadget_id" = ?', bindings: [BRAND, 'g'] });
    expect(() => parts.where(BRAND, { colour: 'red' })).to.throw("widgets: no filter 'colour'");
  });

  it('lets a list be prepared only when none of its filters plans per value', () => {
    expect(parts.preparable({})).to.equal(true);
    expect(parts.preparable({ gadget: 'g' })).to.equal(true);
    expect(parts.preparable({ gadget: 'g', search: 'x' })).to.equal(false);
    expect(parts.preparable({ createdSince: '2026-03-01T00:00:00Z' })).to.equal(false);
  });

  it('finds where a record field is read, and refuses a field the record lacks', () => {
    expect(parts.fieldColumn('id')).to.equal('t."id"');
    expect(parts.fieldColumn('gadgetLabel')).to.equal('j_gadget."label"');
    expect(() => parts.fieldColumn('gadgetId')).to.throw("widgets: no field 'gadgetId'");
  });

  it('orders lists by creation, then id, and quotes only safe aliases', () => {
    expect(LIST_ORDER).to.equal(' order by t."created_at", t."id"');
    expect(quoteAlias('__cursorAt')).to.equal('"__cursorAt"');
    expect(() => quoteAlias('a"; drop')).to.throw('not a safe SQL alias');
  });
});
