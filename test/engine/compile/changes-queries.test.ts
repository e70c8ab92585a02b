import { expect } from 'chai';
import { compileChanges, SMALL_BATCH } from '../../../src/engine/compile/changes-queries.ts';
import { CURRENT_SNAPSHOT_SQL } from '../../../src/engine/compile/snapshot-text.ts';
import { utcTimestampJsonSql } from '../../../src/engine/compile/timestamp-sql.ts';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';

const TIMESTAMP = { type: 'timestamp', nullable: false } as const;
const brands: ResourceDefinition = { path: 'brands', scope: 'tenant', area: 'catalog', fields: { id: { type: 'uuid' }, createdAt: TIMESTAMP } };
const widgets: ResourceDefinition = { path: 'widgets', scope: 'brand', area: 'catalog', fields: { id: { type: 'uuid' }, name: { type: 'string' }, createdAt: TIMESTAMP } };
const units: ResourceDefinition = { path: 'units', scope: 'shared', area: 'catalog', fields: { id: { type: 'uuid' }, code: { type: 'string' }, createdAt: TIMESTAMP } };
const registry = createRegistry([brands, widgets, units]);
const BRAND = '0b9e6a3c-4f2d-4c1e-9a8b-7d6c5b4a3f21';
const AFTER = '5a0f3c1e-2b4d-4e6f-8a9b-0c1d2e3f4a5b';
const gadgets: ResourceDefinition = {
  path: 'gadgets', scope: 'brand', area: 'catalog', joins: { widget: { table: 'widgets', on: { widget_id: 'id' } } },
  fields: { id: { type: 'uuid' }, widgetId: { type: 'uuid', references: 'widgets' }, widgetName: { type: 'string', from: 'widget.name' }, createdAt: TIMESTAMP },
};
const withJoins = createRegistry([brands, widgets, units, gadgets]);
/** A token's snapshot: xmin 990, xmax 996, 992 in progress then. */
const SINCE = '990:996:992';
const SNAPSHOT = `${CURRENT_SNAPSHOT_SQL} as "snapshot"`;
/** A version the token's snapshot did not see: above its xmin (the index's range) and not visible in it. */
const unseen = (version: string): string => `${version} >= ?::xid8 and not pg_visible_in_snapshot(${version}, ?::pg_snapshot)`;

describe('compileChanges', () => {
  it('starts a batch with its snapshot (xmin alone on a standby), and after a token counts the changes that token did not see up to just past a small batch, per source', () => {
    const queries = compileChanges(registry.get('widgets'));
    // The truncations this snapshot already sees ride in the next token: they are in the copy.
    const seenNow = 'array_to_string(array(select distinct x."sync_xid"::text from "sync_truncations" x where x."table_name" in (?) and (x."brand_id" = ? or x."brand_id" is null) and x."sync_xid" >= pg_snapshot_xmin(pg_current_snapshot()) order by 1), \',\') as "truncations"';
    expect(queries.start({ brandId: BRAND, since: null, seen: [] })).to.deep.equal({
      sql: `select ${SNAPSHOT}, ${seenNow}`, bindings: ['widgets', BRAND],
      label: { family: 'widgets', table: 'widgets', operation: 'changes start' },
    });
    const sized = queries.start({ brandId: BRAND, since: SINCE, seen: ['995', '996'] });
    expect(sized.sql).to.equal(
      `select ${SNAPSHOT}, (select count(*) from (`
      + `(select 1 from "widgets" t where t."brand_id" = ? and ${unseen('t."sync_xid"')} limit ${SMALL_BATCH + 1}) union all `
      + `(select 1 from "sync_tombstones" g where g."table_name" = ? and g."brand_id" = ? and ${unseen('g."sync_xid"')} limit ${SMALL_BATCH + 1})) c)::int as "items", `
      // A TRUNCATE since the token, of the brand's rows or every brand's: the batch is refused (410).
      + 'exists (select 1 from "sync_truncations" x where x."table_name" in (?) and (x."brand_id" = ? or x."brand_id" is null) and x."sync_xid" >= ?::xid8'
      + ' and not (x."sync_xid"::text = any(string_to_array(?, \',\')))) as "truncated", '
      + seenNow,
    );
    expect(sized.bindings).to.deep.equal([BRAND, '990', SINCE, 'widgets', BRAND, '990', SINCE, 'widgets', BRAND, '990', '995,996', 'widgets', BRAND]);
    expect(sized.prepare).to.equal(false);
    const joined = compileChanges(withJoins.get('gadgets')).start({ brandId: BRAND, since: SINCE, seen: [] });
    expect(joined.sql).to.include(`join "widgets" j_widget on j_widget."id" = t."widget_id" and j_widget."brand_id" = ? where t."brand_id" = ? and ${unseen('j_widget."sync_xid"')}`);
    // A truncation of a table the records read a field from changes them too.
    expect(joined.sql).to.include('x."table_name" in (?, ?)');
    expect(joined.bindings.slice(-8)).to.deep.equal(['gadgets', 'widgets', BRAND, '990', '', 'gadgets', 'widgets', BRAND]);
  });

  it('a full sync: every record of the brand after the position, in id order, no deletes', () => {
    const page = compileChanges(registry.get('widgets')).page({ brandId: BRAND, since: null, walk: 'full', after: AFTER, limit: 11 });
    expect(page.sql).to.equal(
      'with k as (select u."id", u."deleted" from ((select t."id", false as "deleted" from "widgets" t where t."brand_id" = ? and t."id" > ?::uuid order by t."id" limit ?)) u order by u."id" limit ?)'
      + ` select k."id"::text as "__id", k."deleted" as "__deleted", t."id" as "id", t."name" as "name", ${utcTimestampJsonSql('t."created_at"')} as "createdAt"`
      + ' from k left join "widgets" t on not k."deleted" and t."id" = k."id" and t."brand_id" = ? order by k."id"',
    );
    expect(page.bindings).to.deep.equal([BRAND, AFTER, 11, 11, BRAND]);
    expect(page.prepare).to.equal(true);
  });

  it('a small batch reads each version index apart (its own rows, each joined table, the tombstones), planned for its token', () => {
    const page = compileChanges(withJoins.get('gadgets')).page({ brandId: BRAND, since: SINCE, walk: 'small', after: null, limit: 6 });
    expect(page.sql).to.include(`(select t."id", false as "deleted" from "gadgets" t where t."brand_id" = ? and ${unseen('t."sync_xid"')} order by t."id" limit ?) union (`);
    expect(page.sql).to.include(`from "gadgets" t join "widgets" j_widget on j_widget."id" = t."widget_id" and j_widget."brand_id" = ? where t."brand_id" = ? and ${unseen('j_widget."sync_xid"')} order by`);
    expect(page.sql).to.include(`from "sync_tombstones" g where g."table_name" = ? and g."brand_id" = ? and ${unseen('g."sync_xid"')} and not exists (select 1 from "gadgets" r where r."id" = g."row_id" and r."brand_id" = ?) group by g."row_id"`);
    // The token's xmin bounds the index range; its snapshot drops what it saw above it.
    expect(page.bindings.slice(0, 3)).to.deep.equal([BRAND, '990', SINCE]);
    expect(page.sql).to.include('from k left join "gadgets" t on not k."deleted" and t."id" = k."id" and t."brand_id" = ? left join "widgets" j_widget on');
    expect(page.prepare).to.equal(false);
  });

  it('a large batch walks the ids and compares the newest version of a record\'s rows; a shared family\'s tombstones include those of no brand', () => {
    const page = compileChanges(withJoins.get('gadgets')).page({ brandId: BRAND, since: SINCE, walk: 'large', after: AFTER, limit: 6 });
    // A record changed when any of its rows has a version the token did not see.
    expect(page.sql).to.include('left join "widgets" j_widget on j_widget."id" = t."widget_id" and j_widget."brand_id" = ? where t."brand_id" = ? and t."id" > ?::uuid'
      + ' and greatest(t."sync_xid", j_widget."sync_xid") >= ?::xid8 and (not pg_visible_in_snapshot(t."sync_xid", ?::pg_snapshot) or not pg_visible_in_snapshot(j_widget."sync_xid", ?::pg_snapshot)) order by t."id"');
    expect(page.sql).to.include(`${unseen('greatest(g."sync_xid")')} and g."row_id" > ?::uuid`);
    expect(page.prepare).to.equal(true);
    const units = compileChanges(registry.get('units')).page({ brandId: BRAND, since: SINCE, walk: 'large', after: null, limit: 6 });
    expect(units.sql).to.include('(g."brand_id" = ? or g."brand_id" is null)');
    expect(units.sql).to.include('(r."brand_id" = ? or r."brand_id" is null)');
  });
});
