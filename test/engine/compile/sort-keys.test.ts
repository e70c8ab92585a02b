import { expect } from 'chai';
import { FIELD_TYPES } from '../../../src/engine/compile/field-types.ts';
import { SORT_KEYS } from '../../../src/engine/compile/sort-keys.ts';
import type { FieldType } from '../../../src/engine/definition/resource-definition.ts';
import { inRolledBackTransaction } from '../../support/in-rolled-back-transaction.ts';
import { testDatabase } from '../../support/test-database.ts';

/**
 * A sort value rides in a cursor as text and comes back cast to its column's
 * type: it must be the same value, to the last microsecond and digit, or a
 * walk skips or repeats the rows beside it. Each value Postgres can store
 * that a JavaScript Date or number would change is tried, as the database
 * writes it (a timestamp at microseconds, BC, past 9999, infinity; a decimal
 * of 40 digits, its scale, NaN; a date BC).
 */
const VALUES: Readonly<Partial<Record<FieldType, readonly string[]>>> = {
  timestamp: [
    '2026-03-01 09:30:00.123456+00', '2026-03-01 09:30:00.123457+00', '2026-03-01 09:30:00+00', '0044-03-15 12:00:00.000001+00 BC',
    '10000-01-01 00:00:00.5+00', '294276-12-31 23:59:59.999999+00', 'infinity', '-infinity',
  ],
  date: ['2026-03-01', '0044-03-15 BC', '10000-01-01', '5874897-12-31', 'infinity', '-infinity'],
  decimal: ['40.50', '40.51', '1234567890123456789012345678901234567890.123456789', '-0.000000000000000000001', 'NaN', '0', 'Infinity', '-Infinity'],
  integer: ['2147483647', '-2147483648', '0'],
  string: ['', 'Zürich', 'a"b\\c', 'x'.repeat(300), '\u{1F600}'],
  enum: ['draft'],
};

describe('sort keys: a sort value as a cursor carries it', function () {
  this.timeout(60_000);

  for (const [type, values] of Object.entries(VALUES) as [FieldType, readonly string[]][]) {
    it(`gives a ${type} back exactly: the cursor's text cast to the column's type is the stored value, and it orders as the column does`, async () => {
      const { db } = await testDatabase();
      const key = SORT_KEYS[type]!;
      const columnType = FIELD_TYPES[type].columnType;
      await inRolledBackTransaction(db, async (connection) => {
        await connection.query(`create temporary table keys (v ${columnType}) on commit drop`);
        for (const value of values) await connection.query(`insert into keys values ($1::${columnType})`, [value]);
        const read = await connection.query(`select ${key.sql('v')} as "key" from keys order by v`);
        const texts = read.rows.map((row) => (key.decode ? key.decode(row.key as string) : (row.key as string)));
        for (const text of texts) expect(key.accepts.test(text), `${type} ${text} is a cursor's text`).to.equal(true);
        // Each text, cast back, equals exactly one stored value (itself), and the texts come out in the column's order.
        for (const [i, text] of texts.entries()) {
          const same = await connection.query(`select count(*)::int as n, max(rn)::int as at from (select v, row_number() over (order by v) as rn from keys) k where v = $1::${columnType}`, [text]);
          expect(same.rows[0], `${type} ${text}`).to.deep.equal({ n: 1, at: i + 1 });
        }
      });
    });
  }

  it('has a key for every type a sort takes, and none for the others', () => {
    const sortable: FieldType[] = ['string', 'enum', 'integer', 'decimal', 'date', 'timestamp'];
    for (const type of Object.keys(FIELD_TYPES) as FieldType[]) expect(SORT_KEYS[type] !== null, type).to.equal(sortable.includes(type));
  });
});
