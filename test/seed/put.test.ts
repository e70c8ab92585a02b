import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Registry } from '../../src/engine/definition/registry.ts';
import { createIdSequence } from '../../src/seed/id-sequence.ts';
import { createPut } from '../../src/seed/put.ts';
import { createClock } from '../../src/seed/seed-clock.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';

describe('put', () => {
  let db: Knex;
  let registry: Registry;

  beforeEach(async () => {
    ({ db, registry } = await testDatabase());
    await resetDatabase(db);
  });

  function seeder() {
    return createPut({ db, registry, clock: createClock('2026-01-05T08:00:00.000Z'), newId: createIdSequence('put-test') });
  }

  it('writes records by field name, with ids from the sequence and creation times from the clock', async () => {
    const { put } = seeder();
    const [brand] = await put('brands', null, [{ slug: 'northwind', name: 'Northwind Outfitters' }]);
    const written = await put('carton-sizes', brand!.id, [
      { name: 'Small carton', lengthCm: '40.00' },
      { id: createIdSequence('given')(), name: 'Medium carton', createdAt: '2026-02-01T00:00:00.000Z' },
    ]);
    expect(brand!.id).to.equal(createIdSequence('put-test')());
    expect(written[0]).to.include({ createdAt: '2026-01-05T08:01:00.000Z', updatedAt: '2026-01-05T08:01:00.000Z' });
    expect(written[1]).to.include({ id: createIdSequence('given')(), createdAt: '2026-02-01T00:00:00.000Z', updatedAt: '2026-02-01T00:00:00.000Z' });
    const rows = await db('carton_sizes').orderBy('created_at').select('id', 'brand_id', 'name', 'length_cm');
    expect(rows).to.deep.equal([
      { id: written[0]!.id, brand_id: brand!.id, name: 'Small carton', length_cm: '40.00' },
      { id: written[1]!.id, brand_id: brand!.id, name: 'Medium carton', length_cm: null },
    ]);
  });

  it('putNamed gives back the ids by the names the records were given', async () => {
    const { putNamed } = seeder();
    const ids = await putNamed('countries', null, { PT: { code: 'PT', name: 'Portugal' }, NL: { code: 'NL', name: 'Netherlands' } });
    const rows = await db('countries').select('id', 'code');
    expect(Object.fromEntries(rows.map((row: { id: string; code: string }) => [row.code, row.id]))).to.deep.equal(ids);
  });

  it('remembers every row it wrote, by family and brand, in the order written', async () => {
    const { put, written } = seeder();
    const [brand] = await put('brands', null, [{ slug: 'northwind', name: 'Northwind Outfitters' }]);
    const [own] = await put('units-of-measure', brand!.id, [{ code: 'dz', name: 'Dozen', type: 'count' }]);
    const [shared] = await put('units-of-measure', null, [{ code: 'pcs', name: 'Pieces', type: 'count' }]);
    expect(written.of('units-of-measure')).to.deep.equal([{ id: own!.id, brandId: brand!.id }, { id: shared!.id, brandId: null }]);
    expect(written.of('colors')).to.deep.equal([]);
  });
});
