import { expect } from 'chai';
import { CASE_NAMES } from '../../../bench/measure/cases.ts';
import { FEED_CASE_NAMES } from '../../../bench/measure/feed-cases.ts';
import { selectCases } from '../../../bench/measure/select-cases.ts';
import { WRITE_LOAD_NAMES } from '../../../bench/measure/write-loads.ts';
import { COMPRESSION_CASE_NAMES } from '../../../bench/measure/compression-cases.ts';

describe('selectCases', () => {
  it('keeps the table order; all of every kind when none is named', () => {
    expect(selectCases(['include', 'get-by-id'])).to.deep.equal({ cases: ['get-by-id', 'include'], feed: [], writeLoads: [], compression: [] });
    expect(selectCases(null)).to.deep.equal({ cases: [...CASE_NAMES], feed: [...FEED_CASE_NAMES], writeLoads: [...WRITE_LOAD_NAMES], compression: [...COMPRESSION_CASE_NAMES] });
  });

  it("takes the feed's cases and the write loads beside the floor's, each kind in its table order", () => {
    expect(selectCases(['writer-cost', 'search', 'writes-own-brand', 'changes-page', 'compression']))
      .to.deep.equal({ cases: ['search'], feed: ['changes-page', 'writer-cost'], writeLoads: ['writes-own-brand'], compression: ['compression'] });
  });

  it('refuses an unknown case with a suggestion, among every kind', () => {
    expect(() => selectCases(['serch'])).to.throw(/no case 'serch' \(did you mean 'search'\?\)/);
    expect(() => selectCases(['writer-costs'])).to.throw(/no case 'writer-costs' \(did you mean 'writer-cost'\?\)/);
  });
});
