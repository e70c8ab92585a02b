import { expect } from 'chai';
import { LOADED_CASES, loadedCasesOf, productsOf, WRITE_LOAD_NAMES, WRITE_LOADS } from '../../../bench/measure/write-loads.ts';

const big = { slug: 'brand-001', id: 'b1' };
const small = { slug: 'brand-002', id: 'b2' };

describe('the write loads', () => {
  it('measure counts by status where the writes reach the brand counted, and the first cases under the first two loads', () => {
    expect(WRITE_LOAD_NAMES.map(loadedCasesOf)).to.deep.equal([
      [...LOADED_CASES], [...LOADED_CASES, 'counts-status'], ['counts-status'],
    ]);
  });

  it('write every other brand, a sample of each brand read, or every product of the big brand', () => {
    expect(productsOf({ load: WRITE_LOADS['writes-other-brands'], read: [big, small] })).to.deep.equal({
      sql: 'select id from products where brand_id <> all($1::uuid[])', values: [['b1', 'b2']],
    });
    expect(productsOf({ load: WRITE_LOADS['writes-own-brand'], read: [big, small] }).values).to.deep.equal([['b1', 'b2'], 2000]);
    expect(productsOf({ load: WRITE_LOADS['writes-big-brand'], read: [big, small] })).to.deep.equal({ sql: 'select id from products where brand_id = $1', values: ['b1'] });
    expect(WRITE_LOADS['writes-big-brand'].rate).to.equal(200);
  });
});
