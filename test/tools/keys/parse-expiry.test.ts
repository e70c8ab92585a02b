import { expect } from 'chai';
import { parseExpiry } from '../../../tools/keys/parse-expiry.ts';

const NOW = new Date('2026-11-21T00:00:00Z');

describe('parseExpiry', () => {
  it('reads a date as midnight UTC, and a timestamp with its zone', () => {
    expect(parseExpiry('2027-01-01', NOW).toISOString()).to.equal('2027-01-01T00:00:00.000Z');
    expect(parseExpiry('2027-01-01T12:30:00Z', NOW).toISOString()).to.equal('2027-01-01T12:30:00.000Z');
    expect(parseExpiry('2027-01-01T12:30+02:00', NOW).toISOString()).to.equal('2027-01-01T10:30:00.000Z');
    expect(parseExpiry('2028-02-29', NOW).toISOString()).to.equal('2028-02-29T00:00:00.000Z');
  });

  it('refuses days that do not exist, times without a zone, and the past', () => {
    expect(() => parseExpiry('2027-02-30', NOW)).to.throw(/not a real date/);
    expect(() => parseExpiry('2027-02-29', NOW)).to.throw(/not a real date/);
    expect(() => parseExpiry('2027-01-01T25:00Z', NOW)).to.throw(/not a real date/);
    expect(() => parseExpiry('2027-01-01T12:00:00', NOW)).to.throw(/timestamp with a zone/);
    expect(() => parseExpiry('next year', NOW)).to.throw(/takes a date/);
    expect(() => parseExpiry('2020-01-01', NOW)).to.throw(/already past/);
  });
});
