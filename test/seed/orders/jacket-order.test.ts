import { expect } from 'chai';
import { jacketOrderQuantity } from '../../../src/seed/orders/jacket-order.ts';
import { SIZES } from '../../../src/seed/reference-data/sizes.ts';

describe('the jacket order', () => {
  it('buys 20 ratio packs of 1:2:3:2:1 per colourway', () => {
    expect(SIZES.map((size) => jacketOrderQuantity({ size }))).to.deep.equal([20, 40, 60, 40, 20]);
  });
});
