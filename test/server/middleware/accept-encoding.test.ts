import { expect } from 'chai';
import { negotiateEncoding, parseAcceptEncoding } from '../../../src/server/middleware/accept-encoding.ts';

/** RFC 9110 §12.5.3, as the server reads it: weights, `*`, identity, and br before gzip at equal weight. */
describe('negotiateEncoding', () => {
  const cases: ReadonlyArray<readonly [string | undefined, string]> = [
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['deflate', 'identity'],
    ['compress, x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip', 'gzip'],
    ['gzip;q=1.0, br;q=1', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5', 'br'],
    ['br;q=0, *', 'gzip'],
    ['br;q=0, *;q=0.1', 'gzip'],
    ['*;q=0', 'identity'],
    ['identity', 'identity'],
    ['identity;q=0', 'identity'],
    ['identity;q=0, *;q=0', 'identity'],
    ['identity;q=0, gzip', 'gzip'],
    // An unnamed identity is acceptable but comes last: a lone low weight still asks for gzip.
    ['gzip;q=0.5', 'gzip'],
    // A named identity weighs like any coding.
    ['gzip;q=0.5, identity', 'identity'],
    ['gzip, identity', 'gzip'],
    ['gzip;q=0.5, *;q=0.9', 'br'],
    ['  gzip ;  q=0.5 ,, br ; q=0.4 ', 'gzip'],
    // Weights that do not parse leave their coding out.
    ['br;q=2, gzip', 'gzip'],
    ['br;q=0.1234, gzip;q=0.1', 'gzip'],
    ['br;q=abc', 'identity'],
    // A coding named twice keeps its first weight.
    ['br;q=0, br, gzip;q=0.5', 'gzip'],
  ];
  for (const [header, expected] of cases) {
    it(`answers ${JSON.stringify(header)} with ${expected}`, () => {
      expect(negotiateEncoding(header)).to.equal(expected);
    });
  }
});

describe('parseAcceptEncoding', () => {
  it('reads each coding in lower case with its weight (1 when none is given), x-gzip as gzip', () => {
    expect([...parseAcceptEncoding('Br;Q=0.25, x-gzip, identity;q=0, *;q=0.001, deflate;level=1')]).to.deep.equal([
      ['br', 0.25], ['gzip', 1], ['identity', 0], ['*', 0.001], ['deflate', 1],
    ]);
  });
});
