import { expect } from 'chai';
import { childKey, ordersOf, pick, productCode, productKey, spread, spreadOverSpan } from '../../../bench/data/data-set-expressions.ts';
import { testDatabase } from '../../support/test-database.ts';

/** The value of one SQL expression on the test database. */
async function evaluate(sql: string): Promise<unknown> {
  const { db } = await testDatabase();
  const result = (await db.raw(`select ${sql} as value`)) as { rows: { value: unknown }[] };
  return result.rows[0]!.value;
}

describe('data set expressions', () => {
  it('picks values[n mod length], quoting each value', async () => {
    expect(await evaluate(pick(['a', "b'c", 'd'], '4'))).to.equal("b'c");
    expect(await evaluate(pick(['a', "b'c", 'd'], '0'))).to.equal('a');
  });

  it("keys a product by brand and number, and a child by its parent's key times 8 plus its number", async () => {
    expect(String(await evaluate(productKey('3', '5')))).to.equal(String((3n << 32n) | 5n));
    expect(Number(await evaluate(childKey('10', '2')))).to.equal(82);
  });

  it('codes a product by its brand and number', async () => {
    expect(await evaluate(productCode('7', '42'))).to.equal('B007-000042');
  });

  it('spreads a number from a key, never negative, different for each salt', async () => {
    const values = await Promise.all([1, 2, 3].map((salt) => evaluate(spread('123456789012', salt))));
    for (const value of values) expect(BigInt(value as string) >= 0n).to.equal(true);
    expect(new Set(values).size).to.equal(3);
  });

  it('spreads a brand\'s rows over three years, brands a millisecond apart, and gives every brand at least one order', async () => {
    const first = new Date((await evaluate(`${spreadOverSpan('1', '1', '4')}::text`)) as string);
    const third = new Date((await evaluate(`${spreadOverSpan('1', '3', '4')}::text`)) as string);
    expect(first.toISOString()).to.equal('2023-01-01T00:00:00.001Z');
    expect(third.getTime() - first.getTime()).to.equal(2 * (1095 / 4) * 86_400_000);
    expect(await evaluate(ordersOf('1'))).to.equal(1);
    expect(await evaluate(ordersOf('26'))).to.equal(2);
  });
});
