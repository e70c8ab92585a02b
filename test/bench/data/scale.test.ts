import { expect } from 'chai';
import { brandSlug, pickBrands, planBrands, scaleName, scaleProblem } from '../../../bench/data/scale.ts';

describe('planBrands', () => {
  it('gives the big brand its products first and spreads the rest from a small brand to a large one', () => {
    const plan = planBrands({ products: 1_000_000, brands: 200, bigBrand: 200_000 });
    expect(plan).to.have.length(200);
    expect(plan.reduce((sum, brand) => sum + brand.productCount, 0)).to.equal(1_000_000);
    expect(plan[0]).to.deep.equal({ ordinal: 1, slug: 'brand-001', name: 'Brand 001', productCount: 200_000 });
    const others = plan.slice(1).map((brand) => brand.productCount);
    // The smallest holds about 0.3 of the others' mean (4,020): about 1,200 products.
    expect(Math.min(...others)).to.be.within(1150, 1250);
    expect(Math.max(...others)).to.be.below(200_000);
    expect(others).to.deep.equal([...others].sort((a, b) => a - b));
  });

  it('adds up exactly at small and uneven scales, every brand with at least one product', () => {
    for (const scale of [{ products: 3000, brands: 5, bigBrand: 1500 }, { products: 10, brands: 10, bigBrand: 1 }, { products: 1001, brands: 7, bigBrand: 3 }]) {
      const plan = planBrands(scale);
      expect(plan.reduce((sum, brand) => sum + brand.productCount, 0), JSON.stringify(scale)).to.equal(scale.products);
      expect(plan.every((brand) => brand.productCount >= 1)).to.equal(true);
      expect(plan.map((brand) => brand.slug)).to.deep.equal(plan.map((_, i) => brandSlug(i + 1)));
    }
  });

  it('refuses scales it cannot plan', () => {
    expect(scaleProblem({ products: 100, brands: 1, bigBrand: 50 })).to.match(/at least 2 brands/);
    expect(scaleProblem({ products: 100, brands: 5, bigBrand: 100 })).to.match(/fewer products/);
    expect(scaleProblem({ products: 10, brands: 8, bigBrand: 5 })).to.match(/at least one product/);
    expect(scaleProblem({ products: 1.5, brands: 2, bigBrand: 1 })).to.match(/whole numbers/);
    expect(() => planBrands({ products: 10, brands: 8, bigBrand: 5 })).to.throw(/at least one product/);
  });

  it('picks the big brand, the smallest and the median one for the cases', () => {
    const picked = pickBrands(planBrands({ products: 3000, brands: 5, bigBrand: 1500 }));
    expect(picked.big.slug).to.equal('brand-001');
    expect(picked.small.productCount).to.be.below(picked.medium.productCount);
    expect(picked.medium.productCount).to.be.below(picked.big.productCount);
  });

  it('names a scale for its database and result files', () => {
    expect(scaleName({ products: 1_000_000, brands: 200, bigBrand: 200_000 })).to.equal('p1000000-b200-g200000');
  });
});
