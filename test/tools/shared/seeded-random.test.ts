import { expect } from 'chai';
import { seededRandom } from '../../../tools/shared/seeded-random.ts';

describe('seededRandom', () => {
  it('gives the same sequence for the same seed, another for another seed, always in [0, 1)', () => {
    const draw = (seed: number): number[] => {
      const rand = seededRandom(seed);
      return Array.from({ length: 1000 }, () => rand());
    };
    expect(draw(20260307)).to.deep.equal(draw(20260307));
    expect(draw(20260307)).to.not.deep.equal(draw(20260308));
    expect(draw(1).every((n) => n >= 0 && n < 1)).to.equal(true);
  });

  it('spreads evenly enough for a traffic mix: each tenth gets about a tenth', () => {
    const rand = seededRandom(7);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) buckets[Math.floor(rand() * 10)]! += 1;
    for (const count of buckets) expect(count).to.be.within(900, 1100);
  });
});
