import { expect } from 'chai';
import fc from 'fast-check';
import { compileSchema, parameterIssues } from '../../../src/engine/compile/compile-schema.ts';
import { DATE_PARAMETER, explainDate, explainTimestamp, TIMESTAMP_PARAMETER } from '../../../src/engine/compile/date-time-parameters.ts';
import { unicodeSpaces, withHostileCharacter } from '../../support/unicode-text.ts';

const acceptsTimestamp = compileSchema(TIMESTAMP_PARAMETER);
const acceptsDate = compileSchema(DATE_PARAMETER);

/** The message a query `{ since: text }` gets for its one parameter. */
function messageFor(text: string, schema = TIMESTAMP_PARAMETER): string {
  const validate = compileSchema({ type: 'object', properties: { since: schema } });
  expect(validate({ since: text }), JSON.stringify(text)).to.equal(false);
  const issues = parameterIssues(validate.errors);
  expect(issues.map((issue) => issue.parameter)).to.deep.equal(['since']);
  return issues[0]!.message;
}

const codePoint = (char: string): string => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

describe('date and timestamp parameters', () => {
  it('take RFC 3339 timestamps with a zone Postgres reads: T, t or a space between date and time, Z or an offset up to ±15:59', () => {
    for (const value of ['2026-03-01T09:30:00Z', '2026-03-01t09:30:00z', '2026-03-01 09:30:00Z', '2026-03-01T09:30:00.123456789+05:30', '2026-03-01T09:30:00-1559',
      '2026-03-01T09:30:00+15', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999Z', '2016-12-31T23:59:60Z', '2016-12-31T23:59:60.000Z', '2024-02-29T00:00:00Z']) {
      expect(acceptsTimestamp(value), value).to.equal(true);
    }
    for (const value of ['2026-03-01', '2026-02-28', '0001-01-01', '9999-12-31', '2024-02-29']) expect(acceptsDate(value), value).to.equal(true);
  });

  it('refuse every Unicode space but the ASCII one between date and time, naming the character (the 500 of issue 16)', () => {
    const spaces = unicodeSpaces().filter((space) => space !== ' ');
    // JavaScript's \s alone holds 24 more than the ASCII space: tab, line feed, NBSP, U+2000 to U+200A, U+3000, U+FEFF...
    expect(spaces.length).to.be.at.least(24);
    for (const space of spaces) {
      const value = `2026-01-01${space}00:00:00Z`;
      expect(acceptsTimestamp(value), codePoint(space)).to.equal(false);
      const message = messageFor(value);
      expect(message.startsWith(`contains ${codePoint(space)}, which an ISO 8601 timestamp cannot: `), message).to.equal(true);
      expect(message, codePoint(space)).to.contain('such as 2026-03-01T09:30:00Z');
      expect(acceptsDate(`2026-01-01${space}`), codePoint(space)).to.equal(false);
    }
  });

  it('refuse any value with a character outside visible ASCII and the space, wherever it is', () => {
    const near = fc.constantFrom('2026-03-01T09:30:00Z', '2026-03-01 09:30:00.5+02:00', '2026-03-01');
    fc.assert(fc.property(withHostileCharacter(near), (value) => {
      fc.pre([...value].some((char) => !/[ -~]/.test(char)));
      expect(acceptsTimestamp(value), JSON.stringify(value)).to.equal(false);
      expect(acceptsDate(value), JSON.stringify(value)).to.equal(false);
    }), { numRuns: 2000, seed: 16 });
  });

  it('say what is wrong with a timestamp and show a valid one', () => {
    expect(messageFor('2026-03-01T09:30:00')).to.equal('has no time zone: end it with Z for UTC or with an offset such as +02:00, as in 2026-03-01T09:30:00Z');
    expect(messageFor('2026-03-01T09:30:00 02:00')).to.equal(
      "has a space where the offset's sign belongs: in a query string an unencoded '+' is read as a space, so send it as %2B (2026-03-01T09:30:00%2B02:00), or give the time in UTC with Z (2026-03-01T09:30:00Z)",
    );
    expect(messageFor('2026-03-01 09:30:00.5 0530')).to.contain('send it as %2B (2026-03-01 09:30:00.5%2B0530)');
    expect(messageFor('2026-03-01')).to.equal('is a date without a time: give an instant with a time zone, such as 2026-03-01T00:00:00Z');
    expect(messageFor('')).to.match(/^must not be empty: .*such as 2026-03-01T09:30:00Z/);
    expect(messageFor('2026-03-01T09:30Z')).to.match(/^must give the seconds \(hh:mm:ss\)/);
    expect(messageFor('0000-03-01T09:30:00Z')).to.match(/^has the year 0000, which the database does not have/);
    expect(messageFor('2026-03-01T09:30:00+16:00')).to.match(/^has an offset beyond ±15:59/);
    expect(messageFor(`2026-03-01T09:30:00.${'1'.repeat(20)}Z`)).to.match(/^is too long \(at most 35 characters/);
    // A leap second with a fraction past it was a 500: Postgres reads 23:59:60 but not 23:59:60.999 (found by test/fuzz/list-queries.test.ts).
    for (const value of ['2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-03-01T24:00:00Z', '2026-03-01T09:30:60Z', '2016-12-31T23:59:60.999Z']) {
      expect(messageFor(value), value).to.match(/^names a date or time that does not exist/);
    }
    for (const value of ['yesterday', '2026-03-01T09:30:00ZZ', '2026-03-01_09:30:00Z', '1e9']) {
      expect(messageFor(value), value).to.match(/^must be an ISO 8601 timestamp with a time zone .*such as 2026-03-01T09:30:00Z or 2026-03-01T09:30:00\+02:00$/);
    }
  });

  it('say what is wrong with a date and show a valid one', () => {
    expect(messageFor('2026-03-01T00:00:00Z', DATE_PARAMETER)).to.equal('must be a date without a time, such as 2026-03-01');
    expect(messageFor('2026-02-30', DATE_PARAMETER)).to.match(/^names a date that does not exist .*such as 2026-03-01$/);
    expect(messageFor('0000-01-01', DATE_PARAMETER)).to.match(/^has the year 0000/);
    expect(messageFor('2026-0３-01', DATE_PARAMETER)).to.match(/^contains U\+FF13, which a date cannot/);
    expect(messageFor('March 1', DATE_PARAMETER)).to.equal('must be a date YYYY-MM-DD, such as 2026-03-01');
  });

  it('explain any text without failing, always with an example', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
      expect(explainTimestamp(text)).to.match(/2026-03-01T09:30:00Z/);
      expect(explainDate(text)).to.match(/2026-03-01|[0-9]{4}-[0-9]{2}-[0-9]{2}/);
    }), { numRuns: 500, seed: 16 });
  });

  it('document their grammar in ASCII, with an example the schema accepts', () => {
    for (const schema of [TIMESTAMP_PARAMETER, DATE_PARAMETER]) {
      expect(String(schema.pattern)).to.match(/^[ -~]+$/);
      expect(compileSchema(schema)((schema.examples as string[])[0])).to.equal(true);
    }
  });
});
