import { expect } from 'chai';
import { renderCompression } from '../../../bench/report/compression-report.ts';
import type { CodingRun } from '../../../bench/measure/measure-compression.ts';
import type { Measurement } from '../../../bench/measure/measure.ts';

const measured = (requestsPerSecond: number, cpuMsPerRequest: number | null): Measurement => ({
  requests: requestsPerSecond * 10, seconds: 10, requestsPerSecond, p50Ms: 12.5, p99Ms: 40, errors: 0, non2xx: 0, peakRssBytes: null, cpuMsPerRequest,
});

describe('renderCompression', () => {
  it('prints nothing when the case did not run', () => {
    expect(renderCompression([])).to.deep.equal([]);
  });

  it("prints each request's codings with their bytes and CPU against identity's", () => {
    const runs: CodingRun[] = [
      { coding: 'identity', bodyBytes: 40_000, encodedShare: 1, measurement: measured(1000, 1) },
      { coding: 'gzip', bodyBytes: 8_000, encodedShare: 1, measurement: measured(950, 1.1) },
      { coding: 'br', bodyBytes: 6_000, encodedShare: 0.5, measurement: measured(900, null) },
    ];
    const markdown = renderCompression([{ request: 'list-page-100', title: 'list page', runs }]).join('\n');
    expect(markdown).to.contain('| list page | identity | 40,000 | 1.00× | 100 % | 1,000 | 12.5 | 0 | 1.000 | 1.00× |');
    expect(markdown).to.contain('|  | gzip | 8,000 | 0.20× | 100 % | 950 | 12.5 | 0 | 1.100 | 1.10× |');
    expect(markdown).to.contain('|  | br | 6,000 | 0.15× | 50 % | 900 | 12.5 | 0 | n/a | n/a |');
  });
});
