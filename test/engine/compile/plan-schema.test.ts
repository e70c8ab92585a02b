import { expect } from 'chai';
import { planSchema, type SchemaPlan } from '../../../src/engine/compile/plan-schema.ts';
import { createRegistry, loadRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';

const TIMESTAMP = { type: 'timestamp', nullable: false } as const;
const brands: ResourceDefinition = { path: 'brands', scope: 'tenant', area: 'catalog', fields: { id: { type: 'uuid' }, slug: { type: 'string', nullable: false, unique: true }, createdAt: TIMESTAMP } };
const categories: ResourceDefinition = {
  path: 'categories',
  scope: 'shared', area: 'catalog',
  fields: { id: { type: 'uuid' }, name: { type: 'string' }, createdAt: TIMESTAMP },
  filters: { search: { fields: ['name'], match: 'contains-ci' } },
};
const widgets: ResourceDefinition = {
  path: 'widgets',
  scope: 'brand', area: 'catalog',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string', nullable: false, unique: true },
    categoryId: { type: 'uuid', references: 'categories' },
    shippedAt: { type: 'timestamp' },
    createdAt: TIMESTAMP,
  },
  filters: { code: { field: 'code', match: 'exact' }, category: { field: 'categoryId', match: 'exact' } },
  includes: { category: { resource: 'categories', on: { categoryId: 'id' } } },
};

describe('planSchema', () => {
  let plan: SchemaPlan;
  before(() => {
    plan = planSchema(createRegistry([brands, categories, widgets]));
  });

  const table = (name: string) => plan.tables.find((t) => t.name === name)!;
  const indexesOf = (name: string) => plan.indexes.filter((index) => index.table === name).map(({ method, columns, unique }) => ({ method, columns, unique }));

  it('gives each family a table with a column per column field, the brand after the id, and the changes feed stamp last', () => {
    expect(table('widgets').columns.map((c) => c.name)).to.deep.equal(['id', 'brand_id', 'code', 'category_id', 'shipped_at', 'created_at', 'sync_xid']);
    expect(table('widgets').columns.find((c) => c.name === 'brand_id')).to.deep.include({ type: 'uuid', nullable: false, references: 'brands' });
    expect(table('categories').columns.find((c) => c.name === 'brand_id'), 'shared rows have no brand').to.deep.include({ nullable: true, references: 'brands' });
    expect(table('brands').columns.map((c) => c.name), 'the tenant table has none').to.deep.equal(['id', 'slug', 'created_at']);
  });

  it('gives ids and required timestamps defaults, types their DDL and information_schema names, and references a foreign key', () => {
    const column = (name: string) => table('widgets').columns.find((c) => c.name === name);
    expect(column('id')).to.deep.equal({ name: 'id', type: 'uuid', dataType: 'uuid', nullable: false, default: 'gen_random_uuid()', references: null });
    expect(column('created_at')).to.deep.include({ type: 'timestamptz', dataType: 'timestamp with time zone', nullable: false, default: 'now()' });
    expect(column('shipped_at'), 'a nullable timestamp has no default').to.deep.include({ default: null });
    expect(column('category_id')).to.deep.include({ references: 'categories' });
  });

  it('indexes the list order, each filter behind the brand, unique fields, searches by trigram, and each include\'s key', () => {
    expect(indexesOf('widgets')).to.have.deep.members([
      { method: 'btree', columns: ['brand_id', 'created_at', 'id'], unique: false },
      { method: 'btree', columns: ['brand_id', 'code'], unique: true },
      { method: 'btree', columns: ['brand_id', 'code', 'created_at', 'id'], unique: false },
      { method: 'btree', columns: ['brand_id', 'category_id', 'created_at', 'id'], unique: false },
    ]);
    expect(indexesOf('categories')).to.have.deep.members([
      { method: 'btree', columns: ['brand_id', 'created_at', 'id'], unique: false },
      { method: 'gin', columns: ['brand_id', 'name'], unique: false },
    ]);
    // The tenant's list order and the include on categories.id are served by primary keys.
    expect(indexesOf('brands')).to.deep.equal([{ method: 'btree', columns: ['slug'], unique: true }]);
  });

  it('names indexes after table, columns and kind, sorted, within Postgres\' 63 bytes', () => {
    expect(plan.indexes.map((index) => index.name)).to.deep.equal([...plan.indexes.map((index) => index.name)].sort((a, b) => a.localeCompare(b)));
    expect(plan.indexes.find((index) => index.method === 'gin')!.name).to.equal('categories_brand_id_name_trgm');
    // How one name is made and shortened: test/engine/compile/schema-plan.test.ts.
    expect(plan.indexes.every((index) => index.name.length <= 63)).to.equal(true);
  });

  it('plans the repository\'s registry with index names that are unique and fit', async () => {
    const { tables, indexes } = planSchema(await loadRegistry());
    expect(tables).to.not.be.empty;
    const names = indexes.map((index) => index.name);
    expect(new Set(names).size).to.equal(names.length);
    expect(names.filter((name) => name.length > 63)).to.deep.equal([]);
  });

  it('refuses a registry without a tenant family', () => {
    expect(() => planSchema(createRegistry([categories]))).to.throw(/no tenant family/);
  });
});
