import { expect } from 'chai';
import { catalogInserts } from '../../../bench/data/catalog-inserts.ts';
import { expectedRows } from '../../../bench/data/data-shape.ts';
import { orderInserts } from '../../../bench/data/order-inserts.ts';
import { planBrands } from '../../../bench/data/scale.ts';
import { variantInserts } from '../../../bench/data/variant-inserts.ts';
import { inRolledBackTransaction } from '../../support/in-rolled-back-transaction.ts';
import { testDatabase } from '../../support/test-database.ts';
import { countRows, setUpBenchBrands } from './bench-brands.ts';

describe('orderInserts', () => {
  it("gives every brand its orders, each line pointing at an approved product of the brand, its first colourway and first size", async function () {
    this.timeout(60_000);
    const brands = planBrands({ products: 80, brands: 2, bigBrand: 60 });
    const { db } = await testDatabase();
    await inRolledBackTransaction(db, async (connection) => {
      await setUpBenchBrands(connection, brands);
      for (const sql of [...Object.values(catalogInserts()), ...Object.values(variantInserts())]) await connection.query(sql);
      const statements = orderInserts();
      expect(Object.keys(statements)).to.deep.equal(['orders', 'order_items']);
      for (const sql of Object.values(statements)) await connection.query(sql);
      const ours = `join brands b on b.id = t.brand_id join bench_brands bb on bb.slug = b.slug`;
      const expected = expectedRows(brands);
      expect(await countRows(connection, `orders t ${ours}`)).to.equal(expected.orders);
      expect(await countRows(connection, `order_items t ${ours}`)).to.equal(expected.order_items);
      const mismatched = `order_items t ${ours}
        join products p on p.id = t.product_id join skus s on s.id = t.sku_id
        where p.status <> 'approved' or p.brand_id <> t.brand_id or s.product_option_id <> t.product_option_id or s.product_id <> p.id`;
      expect(await countRows(connection, mismatched)).to.equal(0);
    });
  });
});
