import { expect } from 'chai';
import { catalogInserts } from '../../../bench/data/catalog-inserts.ts';
import { DATA_SHAPE } from '../../../bench/data/data-shape.ts';
import { planBrands } from '../../../bench/data/scale.ts';
import { variantInserts } from '../../../bench/data/variant-inserts.ts';
import { inRolledBackTransaction } from '../../support/in-rolled-back-transaction.ts';
import { testDatabase } from '../../support/test-database.ts';
import { countRows, setUpBenchBrands } from './bench-brands.ts';

describe('variantInserts', () => {
  it('gives every approved product its colourways and each colourway its sizes, their ids computed, not looked up', async function () {
    this.timeout(60_000);
    const brands = planBrands({ products: 40, brands: 2, bigBrand: 20 });
    const { db } = await testDatabase();
    await inRolledBackTransaction(db, async (connection) => {
      await setUpBenchBrands(connection, brands);
      for (const sql of Object.values(catalogInserts())) await connection.query(sql);
      const statements = variantInserts();
      expect(Object.keys(statements)).to.deep.equal(['product_options', 'skus']);
      // The foreign keys are checked: every computed product and colourway id exists.
      for (const sql of Object.values(statements)) await connection.query(sql);
      const ours = `join brands b on b.id = t.brand_id join bench_brands bb on bb.slug = b.slug`;
      const approved = 20;
      expect(await countRows(connection, `product_options t ${ours}`)).to.equal(approved * DATA_SHAPE.optionsPerApprovedProduct);
      expect(await countRows(connection, `skus t ${ours}`)).to.equal(approved * DATA_SHAPE.optionsPerApprovedProduct * DATA_SHAPE.skusPerOption);
      expect(await countRows(connection, `product_options t ${ours} join products p on p.id = t.product_id where p.status <> 'approved'`)).to.equal(0);
      expect(await countRows(connection, `skus t ${ours} join products p on p.id = t.product_id where t.code not like p.code || '-C%'`), 'a SKU code starts with its product\'s').to.equal(0);
    });
  });
});
