import { expect } from 'chai';
import { insertStatements } from '../../../bench/data/data-set-sql.ts';
import { COMMON_STATUS, LOADED_TABLES, expectedRows } from '../../../bench/data/data-shape.ts';
import { planBrands } from '../../../bench/data/scale.ts';
import { inRolledBackTransaction } from '../../support/in-rolled-back-transaction.ts';
import { testDatabase } from '../../support/test-database.ts';
import { countRows, setUpBenchBrands } from './bench-brands.ts';

describe('insertStatements', () => {
  it('fills every table with the rows expectedRows says, every reference resolving (in a transaction rolled back)', async function () {
    this.timeout(60_000);
    const brands = planBrands({ products: 60, brands: 3, bigBrand: 30 });
    const { db } = await testDatabase();
    await inRolledBackTransaction(db, async (connection) => {
      // One session runs one query at a time: counted in turn.
      const counts = async (): Promise<Record<string, number>> => {
        const found: Record<string, number> = {};
        for (const table of LOADED_TABLES) found[table] = await countRows(connection, table);
        return found;
      };
      const before = await counts();
      await setUpBenchBrands(connection, brands);
      const statements = insertStatements();
      expect(Object.keys(statements)).to.deep.equal([...LOADED_TABLES]);
      // Parents first: the foreign keys are checked here, as they are not while the bench loads.
      for (const table of LOADED_TABLES) await connection.query(statements[table]);
      const after = await counts();
      const added = Object.fromEntries(LOADED_TABLES.map((table) => [table, after[table]! - before[table]!]));
      expect(added).to.deep.equal(expectedRows(brands));
      const big = brands[0]!;
      expect(await countRows(connection, `products p join brands b on b.id = p.brand_id where b.slug = '${big.slug}' and p.status = '${COMMON_STATUS}'`)).to.equal(big.productCount / 2);
    });
  });
});
