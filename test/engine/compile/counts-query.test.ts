import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createReadReplicas } from '../../../src/db/connection/read-replicas.ts';
import { createDatabaseReads } from '../../../src/db/database-reads.ts';
import { compileRegistry, type CompiledResource } from '../../../src/engine/compile/compile-registry.ts';
import { MAX_COUNTED_VALUES } from '../../../src/engine/compile/counts-schemas.ts';
import { countRecords, type CountsBody } from '../../../src/engine/read/read-counts.ts';
import type { Reads } from '../../../src/engine/read/reads.ts';
import { createBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

/**
 * Counts by value (CONTRACT.md §8), on the database: the largest counts
 * first, equal counts by value ascending with null last, at most 1,000
 * values and the rest in `otherItems`, `totalItems` every matching record;
 * a shared family's rows of no brand counted for every brand; each value
 * written as the record writes it.
 */
describe('counts by value (compile/counts-query.ts, read/read-counts.ts)', function () {
  this.timeout(120_000);
  let families: ReadonlyMap<string, CompiledResource>;
  let reads: Reads;

  before(async () => {
    const { db, registry } = await testDatabase();
    families = compileRegistry(registry);
    reads = createDatabaseReads(createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: { warn() {}, info() {}, error() {} } as never }));
  });

  const count = (path: string, brandId: string, by: string, filters: Record<string, unknown> = {}): Promise<CountsBody> => {
    const family = families.get(path)!;
    const field = family.resource.countable.find((f) => f.name === by)!;
    return reads.run((session) => countRecords({ session, family, brandId, request: { by: field, filters } }));
  };

  it('orders the largest first, equal counts by value ascending, null last; leaves out values no match has', async () => {
    const { db } = await testDatabase();
    const brand = await createBrand();
    const other = await createBrand();
    const statuses = ['b', 'a', 'c', 'c', null, null, 'a', 'z', 'z', 'z'];
    for (const status of statuses) await db.raw('insert into products (brand_id, status) values (?, ?)', [brand.id, status]);
    await db.raw('insert into products (brand_id, status) values (?, ?)', [other.id, 'a']);
    expect(await count('products', brand.id, 'status')).to.deep.equal({
      by: 'status',
      counts: [{ value: 'z', count: 3 }, { value: 'a', count: 2 }, { value: 'c', count: 2 }, { value: null, count: 2 }, { value: 'b', count: 1 }],
      otherItems: 0,
      totalItems: 10,
    });
    expect(await count('products', brand.id, 'status', { status: ['a', 'b', 'q'] })).to.deep.equal({
      by: 'status', counts: [{ value: 'a', count: 2 }, { value: 'b', count: 1 }], otherItems: 0, totalItems: 3,
    });
    expect(await count('products', randomUUID(), 'status')).to.deep.equal({ by: 'status', counts: [], otherItems: 0, totalItems: 0 });
  });

  it(`lists at most ${MAX_COUNTED_VALUES} values and sums the rest in otherItems`, async () => {
    const { db } = await testDatabase();
    const brand = await createBrand();
    // 1,004 values once each, and one value three times: it comes first; 1,000 are listed, 4 left over.
    await db.raw(`insert into products (brand_id, status) select ?, 's' || lpad(g::text, 4, '0') from generate_series(1, 1004) g`, [brand.id]);
    await db.raw(`insert into products (brand_id, status) select ?, 'top' from generate_series(1, 3)`, [brand.id]);
    const body = await count('products', brand.id, 'status');
    expect(body.counts).to.have.length(MAX_COUNTED_VALUES);
    expect(body.counts[0]).to.deep.equal({ value: 'top', count: 3 });
    expect(body.counts[1]).to.deep.equal({ value: 's0001', count: 1 });
    expect(body.counts[MAX_COUNTED_VALUES - 1]).to.deep.equal({ value: 's0999', count: 1 });
    expect(body.totalItems).to.equal(1007);
    expect(body.otherItems).to.equal(5);
    expect(body.counts.reduce((sum, entry) => sum + entry.count, 0) + body.otherItems).to.equal(body.totalItems);
  });

  it('counts a shared family\'s rows of no brand for every brand, and writes each value as the record does', async () => {
    const { db } = await testDatabase();
    const brand = await createBrand();
    const shared = families.get('countries')!;
    expect(shared.resource.scope).to.equal('shared');
    const by = shared.resource.countable[0]!;
    await db.raw(`insert into countries (brand_id, ${by.sourceColumn}) values (?, 'Europe'), (null, 'Europe'), (null, 'Asia')`, [brand.id]);
    const body = await count('countries', brand.id, by.name);
    expect(body.counts.find((entry) => entry.value === 'Europe')!.count).to.be.at.least(2);
    expect(body.counts.find((entry) => entry.value === 'Asia')!.count).to.be.at.least(1);
    // A date is written as a record writes it, an era and all.
    const dated = [...families.values()].find((family) => family.resource.countable.some((field) => field.type === 'date'));
    if (dated) {
      const field = dated.resource.countable.find((f) => f.type === 'date')!;
      await db.raw(`insert into "${dated.resource.table}" (brand_id, "${field.sourceColumn}") values (?, '0044-03-15 BC'), (?, '2026-03-01')`, [brand.id, brand.id]);
      const days = await count(dated.resource.path, brand.id, field.name);
      expect(days.counts.map((entry) => entry.value).sort()).to.deep.equal(['-000043-03-15', '2026-03-01']);
    }
  });

  it('remembers the counts of a brand while nothing it counts is written, and counts again when a row changes', async () => {
    const { db } = await testDatabase();
    const brand = await createBrand();
    await db.raw(`insert into products (brand_id, status) values (?, 'a'), (?, 'b')`, [brand.id, brand.id]);
    // Each statement the engine runs is seen by knex's query event (query-rows.ts).
    const grouped: string[] = [];
    const listen = (query: { sql: string }): void => {
      if (query.sql.includes('group by')) grouped.push(query.sql);
    };
    db.on('query', listen);
    try {
      const first = await count('products', brand.id, 'status');
      expect(grouped).to.have.length(1);
      // Another brand's write leaves the remembered counts standing: the same answer, counted no more.
      const other = await createBrand();
      await db.raw(`insert into products (brand_id, status) values (?, 'a')`, [other.id]);
      expect(await count('products', brand.id, 'status')).to.deep.equal(first);
      expect(grouped).to.have.length(1);
      await db.raw(`update products set status = 'b' where brand_id = ? and status = 'a'`, [brand.id]);
      expect(await count('products', brand.id, 'status')).to.deep.equal({ by: 'status', counts: [{ value: 'b', count: 2 }], otherItems: 0, totalItems: 2 });
      expect(grouped).to.have.length(2);
    } finally {
      db.off('query', listen);
    }
  });
});
