import { expect } from 'chai';
import { TOPS_REVIEW_CHECKPOINTS } from '../../../src/seed/reference-data/checklists.ts';
import { checklistResults, SAMPLE_ROUNDS } from '../../../src/seed/sourcing/sample-round.ts';

describe('a sample round', () => {
  it('passes every checkpoint but the failures, which carry the reviewer\'s comment', () => {
    const results = checklistResults({ checklist: 'topsReview', failures: { 2: 'Neckband does not recover.' } });
    expect(results.map((r) => r.checkpoint)).to.deep.equal([...TOPS_REVIEW_CHECKPOINTS]);
    expect(results.map((r) => [r.result, r.comment])).to.deep.equal([
      ['pass', null], ['pass', null], ['fail', 'Neckband does not recover.'], ['pass', null], ['pass', null],
    ]);
  });

  it('of the demo: rejected exactly when a checkpoint fails, and each sample is rejected, then approved', () => {
    for (const [name, plan] of Object.entries(SAMPLE_ROUNDS)) {
      const failed = checklistResults(plan).some((result) => result.result === 'fail');
      expect(plan.decision, name).to.equal(failed ? 'rejected' : 'approved');
      expect(checklistResults(plan).filter((result) => result.result === 'fail'), name).to.have.length(Object.keys(plan.failures).length);
    }
    const rounds = Object.values(SAMPLE_ROUNDS);
    for (const sample of ['teeProto', 'jacketFit'] as const) {
      expect(rounds.filter((round) => round.sample === sample).map((round) => [round.roundNumber, round.decision])).to.deep.equal([[1, 'rejected'], [2, 'approved']]);
    }
  });
});
