import { expect } from 'chai';
import type { Knex } from 'knex';
import { CURSOR_TIMESTAMP, cursorTimestampSql, recordTimestampSql } from '../../../src/engine/compile/timestamp-sql.ts';
import { testDatabase } from '../../support/test-database.ts';

/** What the database writes for a timestamptz under a session time zone, with the given SQL form. */
async function written(db: Knex, { sql, value, timeZone }: { sql: (column: string) => string; value: string; timeZone: string }): Promise<string> {
  return db.transaction(async (trx) => {
    await trx.raw(`set local time zone '${timeZone}'`);
    const result = (await trx.raw(`select ${sql('v.at')} as text from (select ?::timestamptz as at) v`, [value])) as { rows: { text: string }[] };
    return result.rows[0]!.text;
  });
}

describe('timestamp SQL', () => {
  let db: Knex;
  before(async () => {
    ({ db } = await testDatabase());
  });

  it("writes a record's timestamp in UTC with milliseconds, whatever the session's time zone", async () => {
    for (const timeZone of ['UTC', 'Asia/Kathmandu', 'America/St_Johns']) {
      expect(await written(db, { sql: recordTimestampSql, value: '2026-03-01T10:15:00.123456+01:00', timeZone }), timeZone).to.equal('2026-03-01T09:15:00.123Z');
    }
  });

  it("writes a cursor's timestamp with the database's full precision, microseconds", async () => {
    for (const timeZone of ['UTC', 'Pacific/Chatham']) {
      const text = await written(db, { sql: cursorTimestampSql, value: '2026-03-01T23:59:59.000001-05:00', timeZone });
      expect(text, timeZone).to.equal('2026-03-02T04:59:59.000001Z');
      expect(text).to.match(CURSOR_TIMESTAMP);
    }
  });

  it('recognises only the cursor form', () => {
    expect(CURSOR_TIMESTAMP.test('2026-03-01T09:30:00.123456Z')).to.equal(true);
    for (const text of ['2026-03-01T09:30:00.123Z', '2026-03-01T09:30:00.123456+00:00', '2026-03-01 09:30:00.123456Z']) {
      expect(CURSOR_TIMESTAMP.test(text), text).to.equal(false);
    }
  });
});
