import { expect } from 'chai';
import { teeLineDescription } from '../../../src/seed/finance/commercial-invoice.ts';

describe('the commercial invoice', () => {
  it('describes a line by style, colour and size, with the SKU code', () => {
    expect(teeLineDescription({ code: 'NW-TS-001-NAV-M', size: 'M' })).to.equal('Everyday Organic Tee, Navy, M (NW-TS-001-NAV-M)');
    expect(teeLineDescription({ code: 'NW-TS-001-OAT-XL', size: 'XL' })).to.equal('Everyday Organic Tee, Oat, XL (NW-TS-001-OAT-XL)');
  });
});
