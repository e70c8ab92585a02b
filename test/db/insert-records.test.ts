import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { insertRecords } from '../../src/db/insert-records.ts';
import { createBrand, insert } from '../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';

describe('insertRecords', () => {
  beforeEach(async () => {
    await resetDatabase((await testDatabase()).db);
  });

  it('writes a brand-owned row with its brand, and JSON values as JSON (null stays null)', async () => {
    const { db, registry } = await testDatabase();
    const brand = await createBrand();
    const [withContent, without] = [randomUUID(), randomUUID()];
    const at = '2026-03-01T09:00:00.000Z';
    const content = { blocks: [{ text: 'Fit notes', bold: true }], version: 2 };
    await insertRecords({
      db,
      resource: registry.get('notes'),
      brandId: brand.id,
      records: [
        { id: withContent, entityType: 'product', entityId: randomUUID(), content, createdAt: at, updatedAt: at },
        { id: without, entityType: 'order', entityId: randomUUID(), content: null, createdAt: at, updatedAt: at },
      ],
    });
    const rows = await db('notes').whereIn('id', [withContent, without]).select('id', 'brand_id', 'entity_type', 'content');
    expect(rows.find((row) => row.id === withContent)).to.deep.equal({ id: withContent, brand_id: brand.id, entity_type: 'product', content });
    expect(rows.find((row) => row.id === without)).to.deep.include({ brand_id: brand.id, content: null });
  });

  it('writes a shared row with no brand, and the tenant family without a brand column', async () => {
    const { db, registry } = await testDatabase();
    const country = randomUUID();
    await insertRecords({ db, resource: registry.get('countries'), brandId: null, records: [{ id: country, code: 'PT', name: 'Portugal', region: 'Europe' }] });
    expect(await db('countries').where({ id: country }).first('brand_id', 'code')).to.deep.equal({ brand_id: null, code: 'PT' });
    const brand = randomUUID();
    await insertRecords({ db, resource: registry.get('brands'), brandId: null, records: [{ id: brand, slug: 'tenant-row', name: 'Tenant Row' }] });
    expect(await db('brands').where({ id: brand }).first('slug')).to.deep.equal({ slug: 'tenant-row' });
  });

  it('refuses a name that is not a column field of the family, writing nothing', async () => {
    const { db, registry } = await testDatabase();
    const brand = await createBrand();
    for (const [name, why] of [['colour', 'no such field'], ['category', 'read from a join'], ['length_cm', 'a column name, not the field name']] as const) {
      const failure = await insertRecords({ db, resource: registry.get(name === 'category' ? 'products' : 'carton-sizes'), brandId: brand.id, records: [{ [name]: 'x' }] }).then(() => null, (error: Error) => error);
      expect(failure?.message, why).to.match(new RegExp(`: '${name}' is not a column field$`));
    }
    expect(await db('carton_sizes').count({ n: '*' }).first().then((row) => Number(row!.n))).to.equal(0);
  });

  it('sends no query for no records', async () => {
    const { db, registry } = await testDatabase();
    let queries = 0;
    const count = (): void => {
      queries += 1;
    };
    db.on('query', count);
    try {
      await insertRecords({ db, resource: registry.get('carton-sizes'), brandId: randomUUID(), records: [] });
    } finally {
      db.off('query', count);
    }
    expect(queries).to.equal(0);
  });
});

describe('the fixtures insert through the registry', () => {
  it('write API field names to their columns', async () => {
    const { db } = await testDatabase();
    await resetDatabase(db);
    const brand = await createBrand();
    const [row] = await insert('carton-sizes', brand.id, [{ name: 'Box', lengthCm: '1.50' }]);
    const stored = await db('carton_sizes').where({ id: row!.id }).first();
    expect(stored).to.include({ brand_id: brand.id, name: 'Box', length_cm: '1.50' });
  });
});
