import { expect } from 'chai';
import type { Knex } from 'knex';
import { dateJsonSql, utcTimestampJsonSql } from '../../../src/engine/compile/timestamp-sql.ts';
import { CURSOR_TIMESTAMP, cursorTimestamp, recordDate, recordTimestamp } from '../../../src/engine/compile/timestamp-text.ts';
import { testDatabase } from '../../support/test-database.ts';

/** A text form: the SQL that reads the column, and the JavaScript that finishes its text (as the engine pairs them). */
interface Form {
  readonly sql: (column: string) => string;
  readonly text: (json: string) => string;
}

const RECORD_TIMESTAMP: Form = { sql: utcTimestampJsonSql, text: recordTimestamp };
const CURSOR: Form = { sql: utcTimestampJsonSql, text: cursorTimestamp };
const RECORD_DATE: Form = { sql: dateJsonSql, text: recordDate };

/** What a value becomes in a form, read under a session time zone and DateStyle. */
async function written(db: Knex, { form, value, timeZone, dateStyle = 'ISO, MDY', type = 'timestamptz' }: {
  form: Form;
  value: string;
  timeZone: string;
  dateStyle?: string;
  type?: string;
}): Promise<string> {
  return db.transaction(async (trx) => {
    await trx.raw(`set local time zone '${timeZone}'`);
    await trx.raw(`set local datestyle = '${dateStyle}'`);
    const result = (await trx.raw(`select ${form.sql('v.at')} as text from (select ?::${type} as at) v`, [value])) as { rows: { text: string }[] };
    return form.text(result.rows[0]!.text);
  });
}

/** Timestamps at the edges of what Postgres holds (4713 BC to 294276 AD, and the infinities), and the record's text of each. */
const TIMESTAMPS: readonly (readonly [string, string])[] = [
  ['4713-11-24 00:00:00+00 BC', '-004712-11-24T00:00:00.000Z'],
  ['0044-03-15 12:00:00.123456+00 BC', '-000043-03-15T12:00:00.123Z'],
  ['0001-12-31 23:59:59.999999+00 BC', '+000000-12-31T23:59:59.999Z'],
  ['0001-01-01 00:30:00+01', '+000000-12-31T23:30:00.000Z'],
  ['0001-01-01 00:00:00+00', '0001-01-01T00:00:00.000Z'],
  ['2026-03-01 10:15:00.123456+01', '2026-03-01T09:15:00.123Z'],
  ['9999-12-31 23:59:59.999999+00', '9999-12-31T23:59:59.999Z'],
  ['10000-01-01 00:00:00+00', '+010000-01-01T00:00:00.000Z'],
  ['294276-12-31 23:59:59.999999+00', '+294276-12-31T23:59:59.999Z'],
  ['infinity', 'infinity'],
  ['-infinity', '-infinity'],
];

const DATES: readonly (readonly [string, string])[] = [
  ['4713-01-01 BC', '-004712-01-01'],
  ['0044-03-15 BC', '-000043-03-15'],
  ['0001-12-31 BC', '+000000-12-31'],
  ['0001-01-01', '0001-01-01'],
  ['9999-12-31', '9999-12-31'],
  ['10000-01-01', '+010000-01-01'],
  ['999999-12-31', '+999999-12-31'],
  ['1000000-01-01', '+1000000-01-01'],
  ['5874897-12-31', '+5874897-12-31'],
  ['infinity', 'infinity'],
  ['-infinity', '-infinity'],
];

describe('timestamp SQL and text', () => {
  let db: Knex;
  before(async () => {
    ({ db } = await testDatabase());
  });

  it("writes a record's timestamp in UTC with milliseconds, cut and never rounded, whatever the session's time zone and DateStyle", async () => {
    for (const [timeZone, dateStyle] of [['UTC', 'ISO, MDY'], ['Asia/Kathmandu', 'SQL, DMY'], ['America/St_Johns', 'German'], ['UTC', 'Postgres, YMD']] as const) {
      expect(await written(db, { form: RECORD_TIMESTAMP, value: '2026-03-01T10:15:00.123956+01:00', timeZone, dateStyle }), timeZone).to.equal('2026-03-01T09:15:00.123Z');
    }
    // Every length of fraction the database writes (none when the second is whole, trailing zeros left out).
    for (const [stored, record] of [['00', '00.000'], ['00.5', '00.500'], ['00.05', '00.050'], ['00.005', '00.005'], ['00.0005', '00.000'], ['00.999999', '00.999']]) {
      expect(await written(db, { form: RECORD_TIMESTAMP, value: `2026-03-01T09:15:${stored}Z`, timeZone: 'UTC' }), stored).to.equal(`2026-03-01T09:15:${record}Z`);
    }
  });

  it("writes a cursor's timestamp with the database's full precision, microseconds", async () => {
    for (const timeZone of ['UTC', 'Pacific/Chatham']) {
      const text = await written(db, { form: CURSOR, value: '2026-03-01T23:59:59.000001-05:00', timeZone, dateStyle: 'SQL, DMY' });
      expect(text, timeZone).to.equal('2026-03-02T04:59:59.000001Z');
      expect(text).to.match(CURSOR_TIMESTAMP);
    }
  });

  it('writes every timestamp Postgres can hold as ISO 8601: expanded years outside 0001 to 9999 (1 BC is year 0), infinity as the word', async () => {
    for (const [stored, record] of TIMESTAMPS) {
      for (const timeZone of ['UTC', 'Asia/Kathmandu']) {
        expect(await written(db, { form: RECORD_TIMESTAMP, value: stored, timeZone }), `${stored} in ${timeZone}`).to.equal(record);
      }
      // JavaScript's Date numbers years the same way (it writes year 0 with four digits, and stops at year 275760).
      const date = new Date(record);
      if (!/^[+]000000|^[+]2942|infinity/.test(record)) expect(date.toISOString(), record).to.equal(record);
    }
  });

  it('writes every date Postgres can hold the same way, years past 294276 (no timestamp has them) included', async () => {
    for (const [stored, record] of DATES) {
      expect(await written(db, { form: RECORD_DATE, value: stored, timeZone: 'UTC', dateStyle: 'SQL, DMY', type: 'date' }), stored).to.equal(record);
    }
  });

  it('writes a cursor timestamp that Postgres reads back as the same instant, whatever the year', async () => {
    for (const [stored] of TIMESTAMPS) {
      for (const timeZone of ['UTC', 'Pacific/Chatham']) {
        const text = await written(db, { form: CURSOR, value: stored, timeZone });
        expect(text, stored).to.match(CURSOR_TIMESTAMP);
        const result = (await db.raw('select ?::timestamptz = ?::timestamptz as same', [text, stored])) as { rows: { same: boolean }[] };
        expect(result.rows[0]!.same, `${stored} as ${text}`).to.equal(true);
      }
    }
    expect(await written(db, { form: CURSOR, value: '0044-03-15 12:00:00.123456+00 BC', timeZone: 'UTC' })).to.equal('0044-03-15T12:00:00.123456Z BC');
    expect(await written(db, { form: CURSOR, value: '2026-03-01 09:15:00+00', timeZone: 'UTC' })).to.equal('2026-03-01T09:15:00.000000Z');
    expect(await written(db, { form: CURSOR, value: '10000-01-01 00:00:00.5+00', timeZone: 'UTC' })).to.equal('10000-01-01T00:00:00.500000Z');
  });
});
