import { INSERT_BRAND_PLAN, SETUP_STATEMENTS } from '../../../bench/data/data-set-sql.ts';
import type { BrandPlan } from '../../../bench/data/scale.ts';
import type { RawConnection } from '../../support/in-rolled-back-transaction.ts';

/** What every insert of the data set needs first: `bench_uid` and the brand plan in `bench_brands`. */
export async function setUpBenchBrands(connection: RawConnection, brands: readonly BrandPlan[]): Promise<void> {
  for (const statement of SETUP_STATEMENTS) await connection.query(statement);
  await connection.query(INSERT_BRAND_PLAN, [brands.map((b) => b.ordinal), brands.map((b) => b.slug), brands.map((b) => b.name), brands.map((b) => b.productCount)]);
}

/** `select count(*) from <sql>`. */
export async function countRows(connection: RawConnection, sql: string): Promise<number> {
  return Number((await connection.query(`select count(*)::int as n from ${sql}`)).rows[0]!.n);
}
