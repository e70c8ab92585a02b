import { expect } from 'chai';
import { didYouMean } from '../../../src/engine/definition/did-you-mean.ts';

describe('didYouMean', () => {
  it('suggests the closest name for a typo, a missing or an extra letter', () => {
    expect(didYouMean('nmae', ['id', 'name', 'code'])).to.equal(" (did you mean 'name'?)");
    expect(didYouMean('cod', ['id', 'name', 'code'])).to.equal(" (did you mean 'code'?)");
    expect(didYouMean('carton-size', ['cartons', 'carton-sizes'])).to.equal(" (did you mean 'carton-sizes'?)");
  });

  it('ignores case when comparing, and writes the candidate as it is spelt', () => {
    expect(didYouMean('CREATEDAT', ['createdAt', 'updatedAt'])).to.equal(" (did you mean 'createdAt'?)");
  });

  it('suggests nothing when no candidate is close, or there are none', () => {
    expect(didYouMean('colour', ['id', 'name', 'code'])).to.equal('');
    expect(didYouMean('anything', [])).to.equal('');
  });

  it('allows two edits for a short name and a third of the length for a long one', () => {
    expect(didYouMean('ab', ['xy'])).to.equal(" (did you mean 'xy'?)");
    expect(didYouMean('abc', ['xyz'])).to.equal('');
    expect(didYouMean('manufacturer', ['manufactXXXX'])).to.equal(" (did you mean 'manufactXXXX'?)");
    expect(didYouMean('manufacturer', ['manufaXXXXXX'])).to.equal('');
  });

  it('takes the first of equally close candidates, from any iterable', () => {
    expect(didYouMean('cat', new Set(['bat', 'hat']))).to.equal(" (did you mean 'bat'?)");
    expect(didYouMean('cat', new Map([['hat', 1], ['bat', 2]]).keys())).to.equal(" (did you mean 'hat'?)");
  });
});
