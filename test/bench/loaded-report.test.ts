import { expect } from 'chai';
import { renderLoaded, worstBigFilterRatio } from '../../bench/loaded-report.ts';
import type { LoadedCaseResult, LoadedRun } from '../../bench/measure-loaded.ts';
import type { Measurement } from '../../bench/measure.ts';

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
}];

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
});
