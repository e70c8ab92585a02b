import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { diffSchema, introspectSchema } from '../../../src/db/schema/schema-diff.ts';
import { planSchema } from '../../../src/engine/compile/plan-schema.ts';
import { loadRegistry, RESOURCES_DIR, type Registry } from '../../../src/engine/definition/registry.ts';
import { DEMO_BRAND, seedDemo } from '../../../src/seed/demo-seed.ts';
import { DERIVED_AT, visibleIds } from '../../../src/seed/derived-rows/derived-rows.ts';
import { DERIVED_ROWS_PER_FAMILY } from '../../../src/seed/derived-rows/derive-records.ts';
import { createTestKey } from '../../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../../support/test-database.ts';
import { startTestServer } from '../../support/test-server.ts';
import { creationOrder, followReferences, followToOneIncludes, type DemoDatabase, type Row } from '../demo-checks.ts';

/**
 * A family is one file: dropped into the registry with its generated
 * migration and nothing else, it gets demo rows derived from its definition,
 * linked to rows the stories seeded, and the stories' rows stay as they were.
 */

const DEFINE = pathToFileURL(join(RESOURCES_DIR, '..', 'src', 'engine', 'definition', 'define-resource.ts')).href;

/** Three families no story knows: one linking to story families, one linking to it, a shared one. */
const ADDED: Readonly<Record<string, string>> = {
  'care-labels': `{
    path: 'care-labels',
    scope: 'brand',
    area: 'catalog',
    fields: {
      id: { type: 'uuid' },
      productId: { type: 'uuid', references: 'products', nullable: false },
      countryId: { type: 'uuid', references: 'countries' },
      supplierId: { type: 'uuid', description: 'No foreign key: linked by the include alone.' },
      parentId: { type: 'uuid', references: 'care-labels' },
      code: { type: 'string', unique: true },
      symbol: { type: 'enum', values: ['wash-30', 'wash-40', 'hand-wash'] },
      washTemperature: { type: 'integer' },
      weightG: { type: 'decimal' },
      recycled: { type: 'boolean' },
      validFrom: { type: 'date' },
      approvedAt: { type: 'timestamp' },
      layout: { type: 'json' },
      createdAt: { type: 'timestamp', nullable: false },
      updatedAt: { type: 'timestamp', nullable: false },
    },
    includes: { supplier: { resource: 'suppliers', on: { supplierId: 'id' } } },
  }`,
  'care-label-translations': `{
    path: 'care-label-translations',
    scope: 'brand',
    area: 'catalog',
    fields: {
      id: { type: 'uuid' },
      careLabelId: { type: 'uuid', references: 'care-labels', nullable: false },
      language: { type: 'string' },
      createdAt: { type: 'timestamp', nullable: false },
    },
  }`,
  'care-symbols': `{
    path: 'care-symbols',
    scope: 'shared',
    area: 'reference',
    fields: {
      id: { type: 'uuid' },
      countryId: { type: 'uuid', references: 'countries', nullable: false },
      name: { type: 'string' },
      createdAt: { type: 'timestamp', nullable: false },
    },
  }`,
};

describe('derived demo rows, for a family with no story', () => {
  let dir: string;
  let db: Knex;
  let stock: Registry;
  let registry: Registry;
  let demo: DemoDatabase;
  let northwind: string;
  /** Every row of the stock families, seeded without the added ones. */
  let storyRows: Record<string, Row[]>;
  /** The changes feed's stamp is the writing transaction's id: another seed run writes other ids. */
  const withoutStamp = (rows: Row[]): Row[] => rows.map(({ sync_xid: _stamp, ...rest }) => rest);

  const rowsOf = async (path: string): Promise<Row[]> => db(registry.get(path).table).select('*').orderBy('created_at').orderBy('id');

  before(async function () {
    this.timeout(120_000);
    ({ db, registry: stock } = await testDatabase());
    dir = await mkdtemp(join(tmpdir(), 'bcat-derived-'));
    for (const [path, definition] of Object.entries(ADDED)) {
      await writeFile(join(dir, `${path}.ts`), `import { defineResource } from '${DEFINE}';\nexport default defineResource(${definition});\n`);
    }
    registry = await loadRegistry({ dirs: [RESOURCES_DIR, dir] });
    demo = { db, registry };

    await resetDatabase(db);
    await seedDemo({ db, registry: stock });
    storyRows = {};
    for (const resource of stock.resources) storyRows[resource.path] = withoutStamp(await db(resource.table).select('*').orderBy('id'));

    // The migration make-migration would generate for the added files.
    for (const statement of diffSchema(planSchema(registry), await introspectSchema(db)).statements) await db.raw(statement);
    await resetDatabase(db);
    expect(await seedDemo({ db, registry })).to.equal(true);
    northwind = String((await db('brands').where({ slug: DEMO_BRAND.slug }).first('id')).id);
  });

  after(async () => {
    for (const path of Object.keys(ADDED)) await db.raw(`drop table if exists "${registry.get(path).table}" cascade`);
    await rm(dir, { recursive: true, force: true });
  });

  it('changes no row of the stories: same ids, same values', async () => {
    for (const resource of stock.resources) {
      expect(withoutStamp(await db(resource.table).select('*').orderBy('id')), resource.path).to.deep.equal(storyRows[resource.path]);
    }
  });

  it('gives each added family its rows: the brand family for the demo brand, the shared one as rows of no brand', async () => {
    for (const path of Object.keys(ADDED)) {
      const rows = await rowsOf(path);
      expect(rows, path).to.have.length(DERIVED_ROWS_PER_FAMILY);
      const owner = registry.get(path).scope === 'shared' ? null : northwind;
      for (const row of rows) expect(row.brand_id, path).to.equal(owner);
    }
  });

  it('links each row to rows already seeded: the nth of the target, the family\'s own first row, an include without a foreign key too', async () => {
    const labels = await rowsOf('care-labels');
    const [first, ...rest] = labels;
    // Products in the order the catalog wrote them.
    const products = await db('products').where('brand_id', northwind).orderBy('created_at').orderBy('id').select('id');
    expect(labels.map((row) => row.product_id)).to.deep.equal(products.slice(0, DERIVED_ROWS_PER_FAMILY).map((row) => row.id));
    expect(first!.parent_id).to.equal(null);
    for (const row of rest) expect(row.parent_id).to.equal(first!.id);
    const suppliers = new Set((await db('suppliers').where('brand_id', northwind).select('id')).map((row) => row.id));
    for (const row of labels) expect(suppliers.has(row.supplier_id)).to.equal(true);
    const labelIds = new Set(labels.map((row) => row.id));
    for (const row of await rowsOf('care-label-translations')) expect(labelIds.has(row.care_label_id)).to.equal(true);
  });

  it('gives every field a value of its type', async () => {
    const [row] = await rowsOf('care-labels');
    expect(row).to.include({ code: 'code 1', symbol: 'wash-30', wash_temperature: 1, recycled: true });
    expect(row!.weight_g).to.equal('1.00');
    expect(row!.layout).to.deep.equal({ row: 1 });
    expect(new Date(row!.approved_at as string).toISOString()).to.equal(DERIVED_AT);
  });

  it('keeps every demo invariant for the added families: references, includes and the order of the season', async () => {
    const references = await followReferences(demo, northwind);
    expect(references.broken).to.deep.equal([]);
    expect(references.unused).to.deep.equal([]);
    const includes = await followToOneIncludes(demo, northwind);
    expect(includes).to.deep.equal({ broken: [], unlinked: [] });
    const order = await creationOrder(demo);
    expect(order.early).to.deep.equal([]);
    expect(order.last < '2026-05-01').to.equal(true);
  });

  it('serves the rows to a client of the demo brand, with their includes', async () => {
    const server = await startTestServer({ registry });
    try {
      const { key } = await createTestKey({ brands: [DEMO_BRAND.slug] });
      const response = await server.request('/brands/northwind/care-labels?include=supplier', { key });
      expect(response.status, response.text).to.equal(200);
      expect(response.body.items).to.have.length(DERIVED_ROWS_PER_FAMILY);
      for (const item of response.body.items) expect(item.supplier).to.include({ id: item.supplierId });
    } finally {
      await server.close();
    }
  });
});

describe('visibleIds', () => {
  it('gives a brand its rows and those of no brand, in the order written; the tenant family is the brand itself', async () => {
    const registry = await loadRegistry();
    const rows = [{ id: 'a', brandId: 'nw' }, { id: 'b', brandId: null }, { id: 'c', brandId: 'sp' }];
    const written = { of: (path: string) => (path === 'colors' ? rows : []) };
    expect(visibleIds({ registry, written, path: 'colors', brandId: 'nw' })).to.deep.equal(['a', 'b']);
    expect(visibleIds({ registry, written, path: 'colors', brandId: null })).to.deep.equal(['b']);
    expect(visibleIds({ registry, written, path: 'brands', brandId: 'nw' })).to.deep.equal(['nw']);
    expect(visibleIds({ registry, written, path: 'brands', brandId: null })).to.deep.equal([]);
  });
});
