import { expect } from 'chai';
import { teeOrderQuantity } from '../../../src/seed/orders/tee-order.ts';
import { SIZES } from '../../../src/seed/reference-data/sizes.ts';

describe('the tee order', () => {
  it('buys 40 ratio packs of 1:2:3:2:1 per colourway, Navy L raised to 120', () => {
    expect(SIZES.map((size) => teeOrderQuantity({ code: `NW-TS-001-OAT-${size}`, size }))).to.deep.equal([40, 80, 120, 80, 40]);
    expect(SIZES.map((size) => teeOrderQuantity({ code: `NW-TS-001-NAV-${size}`, size }))).to.deep.equal([40, 80, 120, 120, 40]);
  });
});
