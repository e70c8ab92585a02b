import { expect } from 'chai';
import { CURSOR_TIMESTAMP, cursorTimestamp, recordDate, recordTimestamp } from '../../../src/engine/compile/timestamp-text.ts';

/**
 * The text forms made from the JSON text the database writes for dates and
 * timestamps, without a database (what the database writes, under every
 * time zone and DateStyle: timestamp-sql.test.ts).
 */
describe('timestamp text', () => {
  it("cuts or pads a record's fraction to milliseconds, never rounding, for every length the database writes", () => {
    const cases: [string, string][] = [
      ['"2026-03-01T09:30:00"', '2026-03-01T09:30:00.000Z'],
      ['"2026-03-01T09:30:00.5"', '2026-03-01T09:30:00.500Z'],
      ['"2026-03-01T09:30:00.05"', '2026-03-01T09:30:00.050Z'],
      ['"2026-03-01T09:30:00.123"', '2026-03-01T09:30:00.123Z'],
      ['"2026-03-01T09:30:00.1239"', '2026-03-01T09:30:00.123Z'],
      ['"2026-03-01T09:30:00.12399"', '2026-03-01T09:30:00.123Z'],
      ['"2026-03-01T09:30:00.999999"', '2026-03-01T09:30:00.999Z'],
    ];
    for (const [json, text] of cases) expect(recordTimestamp(json), json).to.equal(text);
  });

  it("keeps a cursor's fraction to the microsecond, padded with zeros", () => {
    const cases: [string, string][] = [
      ['"2026-03-01T09:30:00"', '2026-03-01T09:30:00.000000Z'],
      ['"2026-03-01T09:30:00.5"', '2026-03-01T09:30:00.500000Z'],
      ['"2026-03-01T09:30:00.000001"', '2026-03-01T09:30:00.000001Z'],
      ['"2026-03-01T09:30:00.12345"', '2026-03-01T09:30:00.123450Z'],
    ];
    for (const [json, text] of cases) {
      expect(cursorTimestamp(json), json).to.equal(text);
      expect(text).to.match(CURSOR_TIMESTAMP);
    }
  });

  it('writes years outside 0001 to 9999 AD as ISO 8601 expanded years (1 BC is year 0), and a cursor as Postgres reads it back', () => {
    expect(recordTimestamp('"0044-03-15T12:00:00.5 BC"')).to.equal('-000043-03-15T12:00:00.500Z');
    expect(recordTimestamp('"0001-12-31T23:59:59 BC"')).to.equal('+000000-12-31T23:59:59.000Z');
    expect(recordTimestamp('"10000-01-01T00:00:00.123456"')).to.equal('+010000-01-01T00:00:00.123Z');
    expect(cursorTimestamp('"0044-03-15T12:00:00.5 BC"')).to.equal('0044-03-15T12:00:00.500000Z BC');
    expect(cursorTimestamp('"10000-01-01T00:00:00"')).to.equal('10000-01-01T00:00:00.000000Z');
    for (const word of ['infinity', '-infinity']) {
      expect(recordTimestamp(`"${word}"`)).to.equal(word);
      expect(cursorTimestamp(`"${word}"`)).to.equal(word);
      expect(recordDate(`"${word}"`)).to.equal(word);
    }
  });

  it("writes a date as it is in years 0001 to 9999, and other years expanded", () => {
    expect(recordDate('"2026-03-01"')).to.equal('2026-03-01');
    expect(recordDate('"0001-01-01"')).to.equal('0001-01-01');
    expect(recordDate('"0044-03-15 BC"')).to.equal('-000043-03-15');
    expect(recordDate('"10000-01-01"')).to.equal('+010000-01-01');
    expect(recordDate('"5874897-12-31"')).to.equal('+5874897-12-31');
  });

  it('refuses a text that is not what the database writes for a date or timestamp, rather than guess', () => {
    for (const text of ['2026-03-01T09:30:00', '"2026-03-01 09:30:00"', '"2026-03-01T09:30:00+01"', '"yesterday"', '""']) {
      expect(() => recordTimestamp(text), text).to.throw(/not the JSON text of a timestamp/);
      expect(() => cursorTimestamp(text), text).to.throw(/not the JSON text of a timestamp/);
    }
    for (const text of ['2026-03-01', '"01/03/2026"', '"2026-03-01T00:00:00"']) expect(() => recordDate(text), text).to.throw(/not the JSON text of a date/);
  });

  it('recognises only the cursor form', () => {
    for (const text of ['2026-03-01T09:30:00.123456Z', '0044-03-15T12:00:00.123456Z BC', '294276-12-31T23:59:59.999999Z', 'infinity', '-infinity']) {
      expect(CURSOR_TIMESTAMP.test(text), text).to.equal(true);
    }
    for (const text of ['2026-03-01T09:30:00.123Z', '2026-03-01T09:30:00.123456+00:00', '2026-03-01 09:30:00.123456Z', '-000043-03-15T12:00:00.123456Z', '+infinity', 'infinity BC']) {
      expect(CURSOR_TIMESTAMP.test(text), text).to.equal(false);
    }
  });
});
