import { expect } from 'chai';
import { QUOTE_REVISIONS } from '../../../src/seed/sourcing/quote-revision.ts';

describe('the quote revisions of the demo', () => {
  for (const [name, plan] of Object.entries(QUOTE_REVISIONS)) {
    it(`${name}: items of revised quotes only, and price bands that start at the item's price and leave no gap`, () => {
      for (const item of Object.values(plan.items)) expect(plan.revisions, item.description).to.have.property(item.quote);
      for (const { item, steps } of plan.bands) {
        expect(plan.items, item).to.have.property(item);
        expect(steps[0]![2], item).to.equal(plan.items[item]!.unitPrice);
        for (let i = 1; i < steps.length; i += 1) expect(steps[i]![0], item).to.equal(steps[i - 1]![1]! + 1);
        expect(steps.at(-1)![1], item).to.equal(null);
      }
    });
  }

  it('second: cheaper than the first for the same items', () => {
    for (const [key, item] of Object.entries(QUOTE_REVISIONS.second.items)) {
      expect(Number(item.unitPrice), key).to.be.below(Number(QUOTE_REVISIONS.first.items[key]!.unitPrice));
    }
  });
});
