import { expect } from 'chai';
import { catalogInserts } from '../../../bench/data/catalog-inserts.ts';
import { COMMON_STATUS, DATA_SHAPE, SEARCH_WORD } from '../../../bench/data/data-shape.ts';
import { planBrands } from '../../../bench/data/scale.ts';
import { inRolledBackTransaction } from '../../support/in-rolled-back-transaction.ts';
import { testDatabase } from '../../support/test-database.ts';
import { setUpBenchBrands } from './bench-brands.ts';

describe('catalogInserts', () => {
  it('gives each brand its categories, colours and suppliers, and products: the odd-numbered approved, the others in development, sampling or discontinued', async function () {
    this.timeout(60_000);
    const brands = planBrands({ products: 400, brands: 2, bigBrand: 200 });
    const { db } = await testDatabase();
    await inRolledBackTransaction(db, async (connection) => {
      await setUpBenchBrands(connection, brands);
      const statements = catalogInserts();
      expect(Object.keys(statements)).to.deep.equal(['brands', 'categories', 'colors', 'suppliers', 'products']);
      for (const sql of Object.values(statements)) await connection.query(sql);
      const perBrand = await connection.query(
        `select b.slug, (select count(*)::int from categories c where c.brand_id = b.id) as categories,
                (select count(*)::int from colors c where c.brand_id = b.id) as colors,
                (select count(*)::int from suppliers s where s.brand_id = b.id) as suppliers
           from brands b join bench_brands bb on bb.slug = b.slug order by b.slug`);
      const { categoriesPerBrand: categories, colorsPerBrand: colors, suppliersPerBrand: suppliers } = DATA_SHAPE;
      expect(perBrand.rows).to.deep.equal(brands.map((b) => ({ slug: b.slug, categories, colors, suppliers })));
      const statuses = await connection.query(
        `select p.status, (substr(p.code, 6)::int % 2 = 1) as odd, count(*)::int as n
           from products p join brands b on b.id = p.brand_id join bench_brands bb on bb.slug = b.slug
          group by 1, 2 order by 1, 2`);
      const byStatus = Object.fromEntries(statuses.rows.map((row) => [`${row.status as string} ${row.odd ? 'odd' : 'even'}`, row.n as number]));
      expect(byStatus[`${COMMON_STATUS} odd`]).to.equal(200);
      expect(Object.keys(byStatus).sort()).to.deep.equal([`${COMMON_STATUS} odd`, 'development even', 'discontinued even', 'sampling even']);
      // 40, 30 and 30 percent of the 200 even-numbered products, give or take.
      expect(byStatus['development even']).to.be.within(55, 105);
      const found = await connection.query(`select count(*)::int as n from products p join brands b on b.id = p.brand_id join bench_brands bb on bb.slug = b.slug where p.name ilike $1`, [`%${SEARCH_WORD}%`]);
      expect(found.rows[0]!.n).to.be.within(1, 40);
    });
  });
});
