import { expect } from 'chai';
import { FAULT_DESCRIPTIONS, faultSchedule, MIN_FAULT_DURATION_S } from '../../../tools/soak/fault-schedule.ts';
import { RECOVERY_GRACE_MS } from '../../../tools/soak/fault-verdict.ts';

describe('tools/soak/fault-schedule.ts', () => {
  it('schedules each fault once, in order, the failover last, each over with its grace before the next and before the end', () => {
    for (const durationS of [MIN_FAULT_DURATION_S, 180, 600]) {
      const schedule = faultSchedule({ durationS });
      expect(schedule.map((fault) => fault.kind)).to.deep.equal(['terminate-backends', 'redis-restart', 'replica-stop', 'primary-failover']);
      const ends = [...schedule.slice(1).map((fault) => fault.atS), durationS];
      schedule.forEach((fault, i) => {
        expect(fault.atS, `${fault.kind} at ${durationS}`).to.be.above(0);
        expect(fault.atS + fault.forS + RECOVERY_GRACE_MS / 1000, `${fault.kind} and its grace end before what follows (${durationS} s)`).to.be.at.most(ends[i]!);
      });
    }
  });

  it('refuses a run too short for the schedule, and describes every fault', () => {
    expect(() => faultSchedule({ durationS: MIN_FAULT_DURATION_S - 1 })).to.throw(RangeError, /--duration 90/);
    for (const fault of faultSchedule({ durationS: 180 })) expect(FAULT_DESCRIPTIONS[fault.kind]).to.be.a('string').and.not.equal('');
  });
});
