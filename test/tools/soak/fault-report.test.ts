import { expect } from 'chai';
import { formatFaultReport } from '../../../tools/soak/fault-report.ts';
import { faultSchedule } from '../../../tools/soak/fault-schedule.ts';
import { judgeFaultRun, type FaultAnswer } from '../../../tools/soak/fault-verdict.ts';
import type { Flatness } from '../../../tools/soak/soak-flatness.ts';

const heap: Flatness = { state: 'flat', middleMedian: 20 * 1024 * 1024, lastMedian: 21 * 1024 * 1024, growthBytes: 1024 * 1024, allowedBytes: 16 * 1024 * 1024, samples: 60 };

describe('tools/soak/fault-report.ts', () => {
  it('says what was injected, what each fault cost and the verdict, in markdown', () => {
    const schedule = faultSchedule({ durationS: 90 });
    const answers: FaultAnswer[] = [{ sentMs: 100, ms: 4, status: 200, wrong: null }, { sentMs: 40_000, ms: 12, status: 503, wrong: null }];
    const windows = [{ kind: 'primary-failover' as const, startMs: 39_000, endMs: 44_500 }];
    const verdict = judgeFaultRun({ answers, windows, copyDifferences: [], heap });
    const text = formatFaultReport({
      startedAt: '2026-11-26T16:00:00.000Z', durationS: 60, readers: 4, schedule, answers, verdict,
      writer: { inserts: 10, updates: 9, deletes: 8, failed: 3 }, follower: { batches: 50, failed: 2, records: 31 }, hangups: 70, heap, environment: 'a test',
    });
    expect(text).to.match(/^# Soak with faults on a schedule \(2026-11-26T16:00:00.000Z\)/);
    expect(text).to.contain('**Verdict: pass.**');
    expect(text).to.contain('200: 1, 503: 1');
    expect(text).to.contain('10 inserts, 9 updates, 8 deletes committed; 3 refused');
    expect(text).to.contain('its copy of 31 records equals the database');
    expect(text).to.contain('70 requests abandoned');
    expect(text).to.contain('| primary-failover | 63 s, for 5 s | 39.0 s | 44.5 s | 1 | 1 | 12 ms | 0.0 s |');
    for (const fault of schedule) expect(text).to.contain(`- \`${fault.kind}\`: `);
  });

  it('says FAIL and why', () => {
    const verdict = judgeFaultRun({ answers: [{ sentMs: 1, ms: 1, status: 500, wrong: null }], windows: [], copyDifferences: [], heap });
    const text = formatFaultReport({
      startedAt: 'then', durationS: 60, readers: 1, schedule: [], answers: [], verdict,
      writer: { inserts: 0, updates: 0, deletes: 0, failed: 0 }, follower: { batches: 0, failed: 0, records: 0 }, hangups: 0, heap, environment: 'x',
    });
    expect(text).to.contain('**Verdict: FAIL.** 1 5xx outside the faults\' windows (statuses 500).');
  });
});
