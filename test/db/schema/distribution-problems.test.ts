import { expect } from 'chai';
import { planForeignKeys } from '../../../src/db/schema/distribution-foreign-keys.ts';
import { distributionProblems } from '../../../src/db/schema/distribution-problems.ts';
import { distributionRoles } from '../../../src/db/schema/distribution-roles.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';
import { planSchema, type SchemaPlan, type TablePlan } from '../../../src/engine/compile/plan-schema.ts';

/** The problems of a schema, with its roles and foreign keys planned as planDistribution plans them. */
function problemsOf(schema: SchemaPlan): string[] {
  const roles = distributionRoles(schema);
  return distributionProblems({ schema, roles, foreignKeys: planForeignKeys({ schema, roles }) });
}

describe('distributionProblems: what stops distribution', () => {
  let schema: SchemaPlan;
  before(async () => {
    schema = planSchema(await loadRegistry());
  });
  const change = (table: string, edit: (t: TablePlan) => TablePlan): SchemaPlan => ({
    ...schema,
    tables: schema.tables.map((t) => (t.name === table ? edit(t) : t)),
  });

  it('finds nothing in the registry\'s schema', () => {
    expect(problemsOf(schema)).to.deep.equal([]);
  });

  it('a brand-scoped table whose brand_id is nullable, of another type, or missing', () => {
    const nullable = change('products', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'brand_id' ? { ...c, nullable: true } : c)) }));
    const problems = problemsOf(nullable);
    expect(problems).to.include('products.brand_id is nullable: Citus cannot place a row whose distribution column is null');
    expect(problems, 'and the keys to it cannot be composite').to.include('skus.product_id -> products: cannot be made composite on brand_id');
    const text = change('products', (t) => ({ ...t, columns: t.columns.map((c) => (c.name === 'brand_id' ? { ...c, type: 'text' } : c)) }));
    expect(problemsOf(text)).to.deep.equal(["products.brand_id is text, the brands' id is uuid: colocated tables need one type"]);
    const missing = problemsOf(change('tags', (t) => ({ ...t, columns: t.columns.filter((c) => c.name !== 'brand_id') })));
    expect(missing).to.include('tags: brand-scoped but has no brand_id column to be distributed by');
    expect(missing.some((p) => p.startsWith('product_tags.tag_id -> tags: cannot be made composite')), 'its references too').to.equal(true);
  });

  it('a brand-scoped table without an id, and a schema without a tenant table', () => {
    expect(problemsOf(change('tags', (t) => ({ ...t, columns: t.columns.filter((c) => c.name !== 'id') })))).to.include('tags: no id column for the primary key (brand_id, id)');
    const noTenant = { ...schema, tables: schema.tables.map((t) => (t.scope === 'tenant' ? { ...t, scope: 'shared' as const } : t)) };
    expect(problemsOf(noTenant)[0]).to.equal("no tenant table (scope 'tenant'): the brands must be a reference table");
  });

  it('a unique index on a brand-scoped table without brand_id', () => {
    const unique = { table: 'products', method: 'btree' as const, columns: ['code'], unique: true, name: 'products_code_key' };
    expect(problemsOf({ ...schema, indexes: [...schema.indexes, unique] }))
      .to.deep.equal(['products_code_key: a unique index on a distributed table must include brand_id']);
  });

  it('a reference table that points at a distributed one, or at a table that does not exist', () => {
    const column = { name: 'product_id', type: 'uuid', dataType: 'uuid', nullable: true, default: null };
    const bad = change('couriers', (t) => ({ ...t, columns: [...t.columns, { ...column, references: 'products' }, { ...column, name: 'x_id', references: 'nowhere' }] }));
    expect(problemsOf(bad)).to.deep.equal([
      'couriers.product_id -> products: a reference table cannot point at a distributed table',
      'couriers.x_id references nowhere, which is not in the schema',
    ]);
  });
});
