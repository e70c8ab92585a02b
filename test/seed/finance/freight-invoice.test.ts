import { expect } from 'chai';
import { freightAmounts } from '../../../src/seed/finance/freight-invoice.ts';

describe('the freight invoice', () => {
  it('adds 21% VAT to the sum of the charges', () => {
    expect(freightAmounts([['freight', 'Ocean freight', '1450.00'], ['handling', 'Handling', '95.00']])).to.deep.equal({
      subtotalAmount: '1545.00', taxAmount: '324.45', totalAmount: '1869.45',
    });
  });
});
