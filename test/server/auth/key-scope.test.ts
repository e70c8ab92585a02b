import { expect } from 'chai';
import { checkKeyScope } from '../../../src/server/auth/key-scope.ts';

const known = { families: ['orders', 'order-lines', 'shipments', 'invoices'], areas: ['orders', 'logistics', 'finance'] };

describe('checkKeyScope', () => {
  it('takes a key of every family, with or without a limit of its own, without asking what families there are', () => {
    expect(checkKeyScope({})).to.equal(null);
    expect(checkKeyScope({ families: [], areas: [], rateLimit: null })).to.equal(null);
    expect(checkKeyScope({ rateLimit: 1 })).to.equal(null);
    expect(checkKeyScope({ rateLimit: 999_999_999 })).to.equal(null);
  });

  it('refuses a limit that is not a whole number of requests above 0', () => {
    for (const rateLimit of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(checkKeyScope({ rateLimit, known }), String(rateLimit)).to.equal('a rate limit is a whole number of requests per window, above 0');
    }
  });

  it('takes families and areas that exist, alone or together', () => {
    expect(checkKeyScope({ families: ['invoices'], known })).to.equal(null);
    expect(checkKeyScope({ areas: ['logistics', 'orders'], known })).to.equal(null);
    expect(checkKeyScope({ families: ['invoices'], areas: ['logistics'], rateLimit: 50, known })).to.equal(null);
  });

  it('names the first family or area that does not exist, with a suggestion, families first', () => {
    expect(checkKeyScope({ families: ['orders', 'shipmnets'], known })).to.equal(
      "no family 'shipmnets' (did you mean 'shipments'?): name a family by its path, as docs/reference/README.md lists them");
    expect(checkKeyScope({ areas: ['logistic'], known })).to.equal("no area 'logistic' (did you mean 'logistics'?): the areas are orders, logistics, finance");
    expect(checkKeyScope({ families: ['nope'], areas: ['nowhere'], known })).to.match(/^no family 'nope'/);
    expect(checkKeyScope({ families: ['orders'], areas: ['nowhere'], known })).to.match(/^no area 'nowhere'.*: the areas are /);
  });

  it('needs the families there are to check a restriction: a caller that forgot them fails loudly', () => {
    expect(() => checkKeyScope({ families: ['orders'] })).to.throw(/restricting a key needs the families and areas there are/);
    expect(() => checkKeyScope({ areas: ['orders'] })).to.throw(/restricting a key needs/);
  });
});
