import { expect } from 'chai';
import { compileChanges } from '../../../src/engine/compile/changes-queries.ts';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import { recordTimestampSql } from '../../../src/engine/compile/timestamp-sql.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';

const TIMESTAMP = { type: 'timestamp', nullable: false } as const;
const brands: ResourceDefinition = { path: 'brands', scope: 'tenant', fields: { id: { type: 'uuid' }, createdAt: TIMESTAMP } };
const widgets: ResourceDefinition = { path: 'widgets', scope: 'brand', fields: { id: { type: 'uuid' }, name: { type: 'string' }, createdAt: TIMESTAMP } };
const units: ResourceDefinition = { path: 'units', scope: 'shared', fields: { id: { type: 'uuid' }, code: { type: 'string' }, createdAt: TIMESTAMP } };
const registry = createRegistry([brands, widgets, units]);
const BRAND = '0b9e6a3c-4f2d-4c1e-9a8b-7d6c5b4a3f21';
const SNAPSHOT = '1000:1010:1002';
const AFTER = { xid: '1001', id: '5a0f3c1e-2b4d-4e6f-8a9b-0c1d2e3f4a5b' };

describe('compileChanges', () => {
  it('upserts: the brand\'s rows visible in the snapshot, at or above the token, after the position, in (sync_xid, id) order', () => {
    const queries = compileChanges(registry.get('widgets'));
    const query = queries.upserts({ brandId: BRAND, snapshot: SNAPSHOT, since: '990', after: AFTER, limit: 11 });
    expect(query.sql).to.equal(
      `select t."id" as "id", t."name" as "name", ${recordTimestampSql('t."created_at"')} as "createdAt", `
      + 't."sync_xid"::text as "__xid" from "widgets" t where t."brand_id" = ? and pg_visible_in_snapshot(t."sync_xid", ?::pg_snapshot) '
      + 'and t."sync_xid" >= ?::xid8 and (t."sync_xid", t."id") > (?::xid8, ?::uuid) order by t."sync_xid", t."id" limit ?',
    );
    expect(query.bindings).to.deep.equal([BRAND, SNAPSHOT, '990', AFTER.xid, AFTER.id, 11]);
    const full = queries.upserts({ brandId: BRAND, snapshot: SNAPSHOT, since: null, after: null, limit: 11 });
    expect(full.sql).to.not.include('>= ?::xid8');
    expect(full.bindings).to.deep.equal([BRAND, SNAPSHOT, 11]);
  });

  it('deletes: the newest tombstone of an id with no row, of the brand (and of no brand for a shared family)', () => {
    const widgetsDeletes = compileChanges(registry.get('widgets')).deletes({ brandId: BRAND, snapshot: SNAPSHOT, since: '990', after: null, limit: 5 });
    expect(widgetsDeletes.sql).to.include('from "sync_tombstones" g where g."table_name" = ? and g."brand_id" = ?');
    expect(widgetsDeletes.sql).to.include('not exists (select 1 from "widgets" r where r."id" = g."row_id" and r."brand_id" = ?)');
    expect(widgetsDeletes.bindings).to.deep.equal(['widgets', BRAND, SNAPSHOT, '990', BRAND, BRAND, SNAPSHOT, 5]);
    const unitsDeletes = compileChanges(registry.get('units')).deletes({ brandId: BRAND, snapshot: SNAPSHOT, since: '990', after: AFTER, limit: 5 });
    expect(unitsDeletes.sql).to.include('(g."brand_id" = ? or g."brand_id" is null)');
    expect(unitsDeletes.sql).to.include('(h."brand_id" = ? or h."brand_id" is null)');
    expect(unitsDeletes.bindings).to.deep.equal(['units', BRAND, SNAPSHOT, '990', AFTER.xid, AFTER.id, BRAND, BRAND, SNAPSHOT, 5]);
  });

  it('takes the snapshot in a query of its own', () => {
    expect(compileChanges(registry.get('widgets')).snapshot()).to.deep.equal({ sql: 'select pg_current_snapshot()::text as "snapshot"', bindings: [] });
  });
});
