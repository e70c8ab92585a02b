import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Registry } from '../../src/engine/definition/registry.ts';
import { DEMO_BRAND, OTHER_BRAND, seedDemo } from '../../src/seed/demo-seed.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';
import { creationOrder, families, followReferences, followToOneIncludes, idIndex, visibleRows, type DemoDatabase } from './demo-checks.ts';

/**
 * The demo data set as a whole, checked from the registry alone: every family
 * has rows for the demo brand, the second brand has some, a second load is a
 * no-op, and every id a row carries points at a row the same brand can see.
 */

/** Where the records of `documents`, `images` and `notes` may point, by their `entityType`. */
const ENTITY_FAMILIES: Readonly<Record<string, string>> = {
  product: 'products',
  product_version: 'product-versions',
  product_option: 'product-options',
  material: 'materials',
  sample: 'samples',
  proto: 'samples',
  rfq: 'quotes',
  order: 'orders',
  partner: 'partners',
  shipment: 'shipments',
  packing_list: 'packing-lists',
  invoice: 'invoices',
  payment: 'payments',
};

describe('the demo seed', () => {
  let db: Knex;
  let registry: Registry;
  let demo: DemoDatabase;
  let loaded: boolean;
  let brands: { northwind: string; southpeak: string };

  async function countWhere(table: string, where: (q: Knex.QueryBuilder) => void): Promise<number> {
    const [row] = await db(table).where(where).count({ n: '*' });
    return Number(row!.n);
  }

  before(async () => {
    ({ db, registry } = await testDatabase());
    demo = { db, registry };
    await resetDatabase(db);
    loaded = await seedDemo({ db, registry });
    const rows = await db('brands').select('id', 'slug');
    const bySlug = new Map(rows.map((row: { id: string; slug: string }) => [row.slug, row.id]));
    brands = { northwind: bySlug.get(DEMO_BRAND.slug)!, southpeak: bySlug.get(OTHER_BRAND.slug)! };
  });

  it('loads into an empty database and creates both brands', async () => {
    expect(loaded).to.equal(true);
    const rows = await db('brands').select('slug', 'name').orderBy('slug');
    expect(rows).to.deep.equal([
      { slug: 'northwind', name: 'Northwind Outfitters' },
      { slug: 'southpeak', name: 'Southpeak Supply Co.' },
    ]);
  });

  it('gives Northwind at least one row in every family of the registry', async () => {
    const empty: string[] = [];
    for (const resource of registry.resources) {
      if (resource.scope === 'tenant') {
        const both = await countWhere(resource.table, (q) => q.whereIn('slug', [DEMO_BRAND.slug, OTHER_BRAND.slug]));
        if (both !== 2) empty.push(resource.path);
        continue;
      }
      const rows = await visibleRows(demo, resource, brands.northwind);
      if (rows.length === 0) empty.push(resource.path);
    }
    expect(empty, 'families with no row for northwind').to.deep.equal([]);
  });

  it('keeps shared families as rows of no brand, with units of measure of each brand besides', async () => {
    const shared = families(demo).filter((resource) => resource.scope === 'shared');
    expect(shared.map((resource) => resource.path)).to.include.members(['countries', 'couriers', 'document-types', 'payment-terms', 'units-of-measure']);
    for (const resource of shared) {
      expect(await countWhere(resource.table, (q) => q.whereNull('brand_id')), `${resource.path}: shared rows`).to.be.greaterThan(0);
    }
    const units = registry.get('units-of-measure').table;
    expect(await countWhere(units, (q) => q.where('brand_id', brands.northwind))).to.equal(1);
    expect(await countWhere(units, (q) => q.where('brand_id', brands.southpeak))).to.equal(1);
  });

  it('gives Southpeak rows of its own in at least ten families, and none of them reach Northwind', async () => {
    const withRows: string[] = [];
    for (const resource of families(demo)) {
      if ((await countWhere(resource.table, (q) => q.where('brand_id', brands.southpeak))) > 0) withRows.push(resource.path);
    }
    expect(withRows.length, withRows.join(', ')).to.be.at.least(10);
    // Southpeak's rows are its own: none is visible to Northwind.
    for (const path of withRows) {
      const northwindIds = await idIndex(demo, brands.northwind)(path);
      const theirs = await db(registry.get(path).table).where('brand_id', brands.southpeak).select('id');
      for (const { id } of theirs) expect(northwindIds.has(id), `${path} ${id}`).to.equal(false);
    }
  });

  for (const brand of ['northwind', 'southpeak'] as const) {
    it(`points every reference field of every ${brand} row at an existing row ${brand} can see`, async () => {
      const { broken, checked, unused } = await followReferences(demo, brands[brand]);
      expect(broken).to.deep.equal([]);
      expect(checked).to.be.greaterThan(brand === 'northwind' ? 1000 : 10);
      // Every family that declares a reference uses one: the story links, it does not just leave ids null.
      if (brand === 'northwind') expect(unused).to.deep.equal([]);
    });
  }

  it('follows every to-one include of every Northwind row to an existing row (references without a foreign key too)', async () => {
    const { broken, unlinked } = await followToOneIncludes(demo, brands.northwind);
    expect(broken).to.deep.equal([]);
    // The fields with no foreign key are links all the same: the seed fills them.
    expect(unlinked).to.deep.equal([]);
  });

  it('attaches every document, image and note to an existing record of the family its entityType names', async () => {
    const ids = idIndex(demo, brands.northwind);
    const attaching = families(demo).filter((resource) => resource.fields.some((f) => f.name === 'entityType') && resource.fields.some((f) => f.name === 'entityId'));
    expect(attaching.map((resource) => resource.path)).to.include.members(['documents', 'images', 'notes']);
    const broken: string[] = [];
    for (const resource of attaching) {
      const type = resource.fields.find((f) => f.name === 'entityType')!.column!;
      const id = resource.fields.find((f) => f.name === 'entityId')!.column!;
      const rows = await visibleRows(demo, resource, brands.northwind);
      expect(rows, resource.path).to.not.be.empty;
      for (const row of rows) {
        const family = ENTITY_FAMILIES[String(row[type])];
        if (!family || !(await ids(family)).has(String(row[id]))) broken.push(`${resource.path}: ${String(row[type])} ${String(row[id])}`);
      }
    }
    expect(broken).to.deep.equal([]);
  });

  it('stamps the season in order: early 2026, and no record before a record it points at', async () => {
    const { early, compared, first, last } = await creationOrder(demo);
    expect(first).to.match(/^2026-01-/);
    expect(last < '2026-05-01').to.equal(true);
    expect(early).to.deep.equal([]);
    expect(compared).to.be.greaterThan(1000);
  });

  it('names in each shipment item the SKU code of its order item', async () => {
    const shipmentItems = await visibleRows(demo, registry.get('shipment-items'), brands.northwind);
    const orderItems = new Map((await visibleRows(demo, registry.get('order-items'), brands.northwind)).map((row) => [row.id, row]));
    const skus = new Map((await visibleRows(demo, registry.get('skus'), brands.northwind)).map((row) => [row.id, row]));
    expect(shipmentItems).to.not.be.empty;
    for (const item of shipmentItems) {
      const orderItem = orderItems.get(item.order_item_id);
      expect(orderItem, `order item of shipment item ${String(item.id)}`).to.not.equal(undefined);
      expect(item.sku).to.equal(skus.get(orderItem!.sku_id)!.code);
    }
  });

  it('loads nothing the second time and changes no row', async () => {
    const snapshot = async (): Promise<Record<string, { count: number; lastUpdate: string | null }>> => {
      const result: Record<string, { count: number; lastUpdate: string | null }> = {};
      for (const resource of registry.resources) {
        const stamp = resource.fields.find((f) => f.name === 'updatedAt') ?? resource.fields.find((f) => f.name === 'createdAt')!;
        const [row] = await db(resource.table).count({ n: '*' }).max({ last: stamp.column! });
        result[resource.path] = { count: Number(row!.n), lastUpdate: row!.last ? new Date(row!.last as string).toISOString() : null };
      }
      return result;
    };
    const before = await snapshot();
    expect(await seedDemo({ db, registry })).to.equal(false);
    expect(await snapshot()).to.deep.equal(before);
  });
});
