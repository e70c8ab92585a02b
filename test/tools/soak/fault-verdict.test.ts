import { expect } from 'chai';
import { copyDifferences, judgeFaultRun, RECOVERY_GRACE_MS, type FaultAnswer, type FaultRunFacts, type FaultWindow } from '../../../tools/soak/fault-verdict.ts';
import type { Flatness } from '../../../tools/soak/soak-flatness.ts';

const flat: Flatness = { state: 'flat', middleMedian: 10, lastMedian: 10, growthBytes: 0, allowedBytes: 16, samples: 60 };
const window: FaultWindow = { kind: 'primary-failover', startMs: 10_000, endMs: 15_000 };
const answer = (sentMs: number, status: number, { ms = 5, wrong = null }: { ms?: number; wrong?: string | null } = {}): FaultAnswer => ({ sentMs, ms, status, wrong });
const facts = (answers: FaultAnswer[], extra: Partial<FaultRunFacts> = {}): FaultRunFacts => ({ answers, windows: [window], copyDifferences: [], heap: flat, ...extra });

describe('tools/soak/fault-verdict.ts', () => {
  it('passes 503s inside a fault and its grace, and says what the fault cost', () => {
    const verdict = judgeFaultRun(facts([answer(1000, 200), answer(10_500, 503, { ms: 40 }), answer(14_000, 503, { ms: 3000 }), answer(16_000, 503, { ms: 10 }), answer(17_000, 200), answer(40_000, 200)]));
    expect(verdict).to.deep.include({ pass: true, reasons: [], outside5xx: 0 });
    expect(verdict.costs).to.deep.equal([{ kind: 'primary-failover', startMs: 10_000, endMs: 15_000, answers: 4, unavailable: 3, maxMs: 3000, recoveryMs: 2000 }]);
  });

  it('fails a 5xx outside every window, a 500 inside one, an unanswered request and a wrong answer', () => {
    const after = window.endMs + RECOVERY_GRACE_MS + 1;
    const verdict = judgeFaultRun(facts([answer(after, 503), answer(12_000, 500), answer(13_000, 0), answer(2000, 200, { wrong: 'a get of a answered b' })]));
    expect(verdict.pass).to.equal(false);
    expect(verdict.outside5xx).to.equal(1);
    expect(verdict.reasons).to.have.length(4);
    expect(verdict.reasons.join('\n')).to.match(/wrong answer.*a get of a answered b/).and.match(/1 request\(s\) got no answer/).and.match(/1 5xx outside/).and.match(/5xx other than 503.*500/);
  });

  it('fails a copy that differs from the database, and a growing heap', () => {
    const verdict = judgeFaultRun(facts([answer(1000, 200)], { copyDifferences: ['x missing from the copy'], heap: { ...flat, state: 'growing', growthBytes: 99, allowedBytes: 16 } }));
    expect(verdict.reasons).to.deep.equal(['the copy kept by the changes feed differs from the database: x missing from the copy', 'the heap grew by 99 bytes (allowed 16)']);
  });

  it('lists what is missing, different or extra in a copy', () => {
    const database = new Map([['a', 'A'], ['b', 'B'], ['c', 'C']]);
    expect(copyDifferences({ copy: new Map([['a', 'A'], ['b', 'B'], ['c', 'C']]), database })).to.deep.equal([]);
    expect(copyDifferences({ copy: new Map([['a', 'A'], ['b', 'b2'], ['d', 'D']]), database })).to.deep.equal([
      'b differs: copy b2, database B', 'c missing from the copy', 'd in the copy, not in the database',
    ]);
    expect(copyDifferences({ copy: new Map(), database, max: 2 })).to.have.length(2);
  });
});
