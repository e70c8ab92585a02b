import { expect } from 'chai';
import { planSchema } from '../../../src/engine/compile/plan-schema.ts';
import { planSync, SYNC_COLUMN, TOMBSTONE_TABLE, TRUNCATION_TABLE } from '../../../src/engine/compile/plan-sync.ts';
import { createRegistry, loadRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';

const TIMESTAMP = { type: 'timestamp', nullable: false } as const;
const brands: ResourceDefinition = { path: 'brands', scope: 'tenant', area: 'catalog', fields: { id: { type: 'uuid' }, slug: { type: 'string', nullable: false, unique: true }, createdAt: TIMESTAMP } };
const widgets: ResourceDefinition = { path: 'widgets', scope: 'brand', area: 'catalog', fields: { id: { type: 'uuid' }, name: { type: 'string' }, createdAt: TIMESTAMP } };
const units: ResourceDefinition = { path: 'units', scope: 'shared', area: 'catalog', fields: { id: { type: 'uuid' }, code: { type: 'string' }, createdAt: TIMESTAMP } };

describe('planSync: what the changes feed needs of the database', () => {
  it('a new family gets the column, its four triggers and its indexes with no line of its own; the tenant gets none', () => {
    const plan = planSchema(createRegistry([brands, widgets, units]));
    for (const table of ['widgets', 'units']) {
      const column = plan.tables.find((t) => t.name === table)!.columns.find((c) => c.name === SYNC_COLUMN);
      expect(column, table).to.deep.include({ type: 'xid8', nullable: false, default: 'pg_current_xact_id()' });
      expect(plan.sync!.triggers.filter((t) => t.table === table).map((t) => [t.name, t.timing, t.level, t.events.join(' or '), t.function])).to.deep.equal([
        ['sync_stamp', 'before', 'row', 'insert or update', 'sync_stamp'],
        ['sync_tombstone_delete', 'after', 'row', 'delete', 'sync_tombstone'],
        ['sync_tombstone_move', 'after', 'row', 'update', 'sync_tombstone'],
        // A TRUNCATE cannot list its rows: it records whose they were, before they go.
        ['sync_truncate', 'before', 'statement', 'truncate', 'sync_truncation'],
      ]);
      // A small batch reads the version index; a large one walks the ids.
      expect(plan.sync!.indexes.filter((i) => i.table === table).map((i) => i.columns.join()), table).to.deep.equal([`brand_id,${SYNC_COLUMN},id`, 'brand_id,id']);
      // A row that leaves the brand, or whose id changes, leaves a tombstone.
      expect(plan.sync!.triggers.find((t) => t.table === table && t.name === 'sync_tombstone_move')!.when).to.equal('old."brand_id" is distinct from new."brand_id" or old."id" is distinct from new."id"');
    }
    expect(plan.tables.find((t) => t.name === 'brands')!.columns.some((c) => c.name === SYNC_COLUMN)).to.equal(false);
    expect(plan.sync!.triggers.some((t) => t.table === 'brands')).to.equal(false);
  });

  it('one tombstone table, keyed for the feed (table, brand, xid, row) and for pruning (deleted_at), and one of truncations', () => {
    const plan = planSync(createRegistry([brands, widgets]).resources);
    expect(plan.tables.map((t) => t.name)).to.deep.equal([TOMBSTONE_TABLE, TRUNCATION_TABLE]);
    expect(plan.tables[1]!.columns.map((c) => `${c.name} ${c.type}${c.nullable ? '' : ' not null'}`)).to.deep.equal([
      'table_name text not null', 'brand_id uuid', 'sync_xid xid8 not null', 'truncated_at timestamptz not null',
    ]);
    expect(plan.indexes.filter((i) => i.table === TRUNCATION_TABLE).map((i) => i.columns.join())).to.deep.equal(['table_name,sync_xid']);
    expect(plan.tables[0]!.columns.map((c) => `${c.name} ${c.type}${c.nullable ? '' : ' not null'}`)).to.deep.equal([
      'table_name text not null', 'brand_id uuid', 'row_id uuid not null', 'sync_xid xid8 not null', 'deleted_at timestamptz not null',
    ]);
    expect(plan.indexes.filter((i) => i.table === TOMBSTONE_TABLE).map((i) => i.columns.join())).to.deep.equal([
      'table_name,brand_id,sync_xid,row_id', 'table_name,brand_id,row_id', 'deleted_at',
    ]);
    expect(plan.functions.map((f) => f.name)).to.deep.equal(['sync_stamp', 'sync_tombstone', 'sync_truncation']);
  });

  it('covers every family of the repository but Brand', async () => {
    const registry = await loadRegistry();
    const plan = planSync(registry.resources);
    const stamped = new Set(plan.triggers.filter((t) => t.name === 'sync_stamp').map((t) => t.table));
    expect([...stamped].sort()).to.deep.equal(registry.resources.filter((r) => r.scope !== 'tenant').map((r) => r.table).sort());
  });
});
