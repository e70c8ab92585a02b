import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { DEMO_BRAND, OTHER_BRAND, seedDemo } from '../../src/seed/demo-seed.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';

/**
 * The demo data set as a whole, checked from the registry alone: every family
 * has rows for the demo brand, the second brand has some, a second load is a
 * no-op, and every id a row carries points at a row the same brand can see.
 */

type Row = Record<string, unknown>;

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
  let loaded: boolean;
  let brands: { northwind: string; southpeak: string };

  /** The rows of a family that a brand sees: its own, and for a shared family the rows of no brand. */
  function visibleRows(resource: Resource, brandId: string): Promise<Row[]> {
    if (resource.scope === 'tenant') return db(resource.table).where('id', brandId).select('*');
    const query = db(resource.table).select('*');
    return resource.scope === 'shared'
      ? query.where((q) => q.where('brand_id', brandId).orWhereNull('brand_id'))
      : query.where('brand_id', brandId);
  }

  async function countWhere(table: string, where: (q: Knex.QueryBuilder) => void): Promise<number> {
    const [row] = await db(table).where(where).count({ n: '*' });
    return Number(row!.n);
  }

  const families = (): Resource[] => registry.resources.filter((resource) => resource.scope !== 'tenant');

  /** The ids each family shows a brand, loaded once per family and brand. */
  function idIndex(brandId: string): (path: string) => Promise<Set<string>> {
    const cache = new Map<string, Promise<Set<string>>>();
    return (path) => {
      let ids = cache.get(path);
      if (!ids) {
        ids = visibleRows(registry.get(path), brandId).then((rows) => new Set(rows.map((row) => String(row.id))));
        cache.set(path, ids);
      }
      return ids;
    };
  }

  before(async () => {
    ({ db, registry } = await testDatabase());
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

  it('gives Northwind at least one row in every one of the 93 families', async () => {
    expect(registry.resources).to.have.length(93);
    const empty: string[] = [];
    for (const resource of registry.resources) {
      if (resource.scope === 'tenant') {
        const both = await countWhere(resource.table, (q) => q.whereIn('slug', [DEMO_BRAND.slug, OTHER_BRAND.slug]));
        if (both !== 2) empty.push(resource.path);
        continue;
      }
      const rows = await visibleRows(resource, brands.northwind);
      if (rows.length === 0) empty.push(resource.path);
    }
    expect(empty, 'families with no row for northwind').to.deep.equal([]);
  });

  it('keeps shared families as rows of no brand, with units of measure of each brand besides', async () => {
    const shared = families().filter((resource) => resource.scope === 'shared');
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
    for (const resource of families()) {
      if ((await countWhere(resource.table, (q) => q.where('brand_id', brands.southpeak))) > 0) withRows.push(resource.path);
    }
    expect(withRows.length, withRows.join(', ')).to.be.at.least(10);
    // Southpeak's rows are its own: none is visible to Northwind.
    for (const path of withRows) {
      const northwindIds = await idIndex(brands.northwind)(path);
      const theirs = await db(registry.get(path).table).where('brand_id', brands.southpeak).select('id');
      for (const { id } of theirs) expect(northwindIds.has(id), `${path} ${id}`).to.equal(false);
    }
  });

  for (const brand of ['northwind', 'southpeak'] as const) {
    it(`points every reference field of every ${brand} row at an existing row ${brand} can see`, async () => {
      const brandId = brands[brand];
      const ids = idIndex(brandId);
      const broken: string[] = [];
      let checked = 0;
      const familiesUsingReferences = new Set<string>();
      for (const resource of families()) {
        const references = resource.fields.filter((field) => field.references !== null && field.column !== null);
        if (references.length === 0) continue;
        for (const row of await visibleRows(resource, brandId)) {
          for (const field of references) {
            const value = row[field.column!];
            if (value === null || value === undefined) continue;
            checked += 1;
            familiesUsingReferences.add(resource.path);
            if (!(await ids(field.references!)).has(String(value))) broken.push(`${resource.path}.${field.name} = ${String(value)} (-> ${field.references})`);
          }
        }
      }
      expect(broken).to.deep.equal([]);
      expect(checked).to.be.greaterThan(brand === 'northwind' ? 1000 : 10);
      if (brand === 'northwind') {
        // Every family that declares a reference uses one: the story links, it does not just leave ids null.
        const declaring = families().filter((resource) => resource.fields.some((field) => field.references !== null)).map((resource) => resource.path);
        expect(declaring.filter((path) => !familiesUsingReferences.has(path))).to.deep.equal([]);
      }
    });
  }

  it('follows every to-one include of every Northwind row to an existing row (references without a foreign key too)', async () => {
    const ids = idIndex(brands.northwind);
    const broken: string[] = [];
    const unlinked: string[] = [];
    for (const resource of families()) {
      const toOne = resource.includes.filter((include) => include.cardinality === 'one');
      if (toOne.length === 0) continue;
      const rows = await visibleRows(resource, brands.northwind);
      for (const include of toOne) {
        const field = resource.fields.find((f) => f.name === include.localField)!;
        let linked = 0;
        for (const row of rows) {
          const value = row[field.column!];
          if (value === null || value === undefined) continue;
          linked += 1;
          if (!(await ids(include.resource)).has(String(value))) broken.push(`${resource.path}.${field.name} = ${String(value)} (include ${include.name})`);
        }
        // The fields with no foreign key are links all the same: the seed fills them.
        if (field.references === null && linked === 0) unlinked.push(`${resource.path}.${field.name}`);
      }
    }
    expect(broken).to.deep.equal([]);
    expect(unlinked).to.deep.equal([]);
  });

  it('attaches every document, image and note to an existing record of the family its entityType names', async () => {
    const ids = idIndex(brands.northwind);
    const attaching = families().filter((resource) => resource.fields.some((f) => f.name === 'entityType') && resource.fields.some((f) => f.name === 'entityId'));
    expect(attaching.map((resource) => resource.path)).to.include.members(['documents', 'images', 'notes']);
    const broken: string[] = [];
    for (const resource of attaching) {
      const type = resource.fields.find((f) => f.name === 'entityType')!.column!;
      const id = resource.fields.find((f) => f.name === 'entityId')!.column!;
      const rows = await visibleRows(resource, brands.northwind);
      expect(rows, resource.path).to.not.be.empty;
      for (const row of rows) {
        const family = ENTITY_FAMILIES[String(row[type])];
        if (!family || !(await ids(family)).has(String(row[id]))) broken.push(`${resource.path}: ${String(row[type])} ${String(row[id])}`);
      }
    }
    expect(broken).to.deep.equal([]);
  });

  it('stamps the season in order: early 2026, and no record before a record it points at', async () => {
    const createdAt = new Map<string, number>();
    const rowsByPath = new Map<string, Row[]>();
    for (const resource of registry.resources) {
      const rows = await db(resource.table).select('*');
      rowsByPath.set(resource.path, rows);
      for (const row of rows) createdAt.set(String(row.id), new Date(row.created_at as string).getTime());
    }
    const times = [...createdAt.values()];
    expect(new Date(Math.min(...times)).toISOString()).to.match(/^2026-01-/);
    expect(new Date(Math.max(...times)).toISOString() < '2026-05-01').to.equal(true);
    const early: string[] = [];
    let compared = 0;
    for (const resource of families()) {
      for (const include of resource.includes.filter((i) => i.cardinality === 'one')) {
        const field = resource.fields.find((f) => f.name === include.localField)!;
        // Two records that point at each other cannot both come second: where one side has no foreign key
        // (a dimension group's default curve, made after the group it belongs to), that side is the later one.
        const pointsBack = include.resource !== resource.path
          && registry.get(include.resource).includes.some((i) => i.cardinality === 'one' && i.resource === resource.path);
        if (pointsBack && field.references === null) continue;
        const column = field.column!;
        for (const row of rowsByPath.get(resource.path)!) {
          const parent = row[column] === null ? undefined : createdAt.get(String(row[column]));
          if (parent === undefined) continue;
          compared += 1;
          if (new Date(row.created_at as string).getTime() < parent) early.push(`${resource.path} ${String(row.id)} before its ${include.name}`);
        }
      }
    }
    expect(early).to.deep.equal([]);
    expect(compared).to.be.greaterThan(1000);
  });

  it('names in each shipment item the SKU code of its order item', async () => {
    const shipmentItems = await visibleRows(registry.get('shipment-items'), brands.northwind);
    const orderItems = new Map((await visibleRows(registry.get('order-items'), brands.northwind)).map((row) => [row.id, row]));
    const skus = new Map((await visibleRows(registry.get('skus'), brands.northwind)).map((row) => [row.id, row]));
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
