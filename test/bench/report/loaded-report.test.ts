import { expect } from 'chai';
import { renderLoaded, worstBigFilterRatio, worstLoadedRatio } from '../../../bench/report/loaded-report.ts';
import { requestsOver, type LoadedCaseResult, type LoadedRun } from '../../../bench/measure/measure-loaded.ts';
import type { Measurement } from '../../../bench/measure/measure.ts';

const run = (requestsPerSecond: number, p50Ms: number): Measurement => ({
  requests: requestsPerSecond * 10, seconds: 10, requestsPerSecond, p50Ms, p99Ms: p50Ms * 3, errors: 0, non2xx: 0, peakRssBytes: null, cpuMsPerRequest: null,
});
const result = (name: LoadedCaseResult['name'], connections: number, server: number, floor: number): LoadedCaseResult => ({
  load: 'writes-other-brands', connections, name, title: name, server: run(server, 10), floor: run(floor, 20), preparedFloor: run(floor * 2, 10),
  requestsRatio: server / floor, preparedRatio: server / floor / 2,
});
const loaded: LoadedRun[] = [{
  load: 'writes-other-brands',
  writesPerSecond: 199.6,
  cases: [result('first-page-big-filter', 2, 600, 100), result('get-by-id', 2, 900, 1000), result('first-page-big-filter', 256, 1200, 150)],
  freshCounts: null,
}];

describe('requestsOver', () => {
  it('is the ratio of req/s; infinite when only the server answered, NaN when neither did', () => {
    expect(requestsOver(run(900, 1), run(300, 1))).to.equal(3);
    expect(requestsOver(run(900, 1), run(0, Number.NaN))).to.equal(Number.POSITIVE_INFINITY);
    expect(requestsOver(run(0, Number.NaN), run(0, Number.NaN))).to.be.NaN;
  });
});

describe('the write-load report', () => {
  it("takes a load's worst ratio of the big filtered first page over its connection counts, null when the load did not run", () => {
    expect(worstBigFilterRatio(loaded, 'writes-other-brands')).to.equal(6);
    expect(worstBigFilterRatio(loaded, 'writes-own-brand')).to.equal(null);
  });

  it('prints a table per load, with what the load achieved, a row per case and connection count', () => {
    const markdown = renderLoaded(loaded).join('\n');
    expect(markdown).to.contain('### Under a write load: 200 writes/s spread over the other brands (achieved 200/s)');
    expect(markdown).to.contain('| first-page-big-filter | 2 | 600 | 10.0 | 30.0 | 100 | 20.0 | 60.0 | 200 | 10.0 | 30.0 | 6.00× | 3.00× |');
    expect(markdown).to.contain('| get-by-id | 2 | 900 | 10.0 | 30.0 | 1,000 | 20.0 | 60.0 | 2,000 | 10.0 | 30.0 | 0.90× | 0.45× |');
    expect(renderLoaded([])).to.deep.equal([]);
  });

  it('says when a floor answered none, and judges a run where no side answered as not run', () => {
    const stalled: LoadedRun[] = [{ load: 'writes-own-brand', writesPerSecond: 20, freshCounts: null, cases: [
      { ...result('first-page-big-filter', 256, 140, 0), load: 'writes-own-brand', requestsRatio: Number.POSITIVE_INFINITY },
      { ...result('first-page-big-filter', 2, 700, 20), load: 'writes-own-brand' },
    ] }];
    expect(worstBigFilterRatio(stalled, 'writes-own-brand')).to.equal(35);
    expect(renderLoaded(stalled).join('\n')).to.contain('| ∞ (none answered) |');
    const failed: LoadedRun[] = [{ ...stalled[0]!, cases: [{ ...stalled[0]!.cases[0]!, requestsRatio: Number.NaN }] }];
    expect(worstBigFilterRatio(failed, 'writes-own-brand')).to.be.NaN;
  });

  it("takes any case's worst ratio, to either floor, and says how fresh the server's counts were", () => {
    const counted: LoadedRun[] = [{
      load: 'writes-big-brand', writesPerSecond: 199.2,
      cases: [{ ...result('counts-status', 2, 300, 100), load: 'writes-big-brand' }, { ...result('counts-status', 32, 900, 150), load: 'writes-big-brand' }],
      freshCounts: { connections: 32, seconds: 10.02, answers: 9000, countsRun: 540.4, checks: 600, sources: { remembered: 900, running: 2100, counted: 6000 }, freshShare: 0.9 },
    }];
    expect(worstLoadedRatio({ loaded: counted, load: 'writes-big-brand', name: 'counts-status' })).to.equal(3);
    expect(worstLoadedRatio({ loaded: counted, load: 'writes-big-brand', name: 'counts-status', which: 'preparedRatio' })).to.equal(1.5);
    expect(worstLoadedRatio({ loaded: counted, load: 'writes-own-brand', name: 'counts-status' })).to.equal(null);
    const markdown = renderLoaded(counted).join('\n');
    expect(markdown).to.contain('### Under a write load: 200 writes/s to the big brand, so that every count is stale (achieved 199/s)');
    expect(markdown).to.contain('(10 s at 32 connections): 9,000 answers');
    expect(markdown).to.contain("9,000 answers; the server's metrics: 6,000 from a count started for them, 2,100 from a count running when they came (nothing written since it began), 900 from the remembered count");
    expect(markdown).to.contain('540 counts after 600 probes. **90 % of the answers from a count run during the request.**');
  });
});
