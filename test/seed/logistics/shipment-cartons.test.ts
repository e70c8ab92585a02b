import { expect } from 'chai';
import { cartonsFor, cartonWeights, JACKET_PACKING, planCartons, TEE_PACKING } from '../../../src/seed/logistics/shipment-cartons.ts';

describe('shipment cartons', () => {
  it('fill each carton to the packing\'s count, one line per carton, numbered on across lines', () => {
    const lines = [{ id: 'm', quantity: 120 }, { id: 'xs', quantity: 40 }, { id: 'l', quantity: 118 }];
    const { cartons, ranges } = planCartons(lines, TEE_PACKING);
    expect(cartons.map((carton) => [carton.line.id, carton.quantity])).to.deep.equal([
      ['m', 40], ['m', 40], ['m', 40], ['xs', 40], ['l', 40], ['l', 40], ['l', 38],
    ]);
    expect(Object.fromEntries(ranges)).to.deep.equal({ m: [1, 3], xs: [4, 4], l: [5, 7] });
    expect([cartonsFor(118, TEE_PACKING), cartonsFor(40, TEE_PACKING), cartonsFor(21, JACKET_PACKING)]).to.deep.equal([3, 1, 3]);
  });

  it('weigh a full carton at the packing\'s weights, a part-filled one by its units (the carton itself counted once)', () => {
    expect(cartonWeights(TEE_PACKING, 40)).to.deep.equal({ grossWeightKg: '9.80', netWeightKg: '8.80' });
    expect(cartonWeights(TEE_PACKING, 20)).to.deep.equal({ grossWeightKg: '5.40', netWeightKg: '4.40' });
    expect(cartonWeights(JACKET_PACKING, 10)).to.deep.equal({ grossWeightKg: '7.70', netWeightKg: '6.20' });
  });
});
