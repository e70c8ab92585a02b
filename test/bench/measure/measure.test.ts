import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { combine, percentile, runLoad, type LoadTarget, type RunSample } from '../../../bench/measure/measure.ts';

describe('percentile', () => {
  it('takes the nearest rank of sorted values', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).to.equal(50);
    expect(percentile(values, 99)).to.equal(99);
    expect(percentile(values, 100)).to.equal(100);
    expect(percentile([0.25, 0.5, 4], 50)).to.equal(0.5);
    expect(percentile([7], 99)).to.equal(7);
    expect(percentile([], 50)).to.be.NaN;
  });
});

describe('combine', () => {
  const sample = (over: Partial<RunSample>): RunSample => ({ requests: 0, seconds: 1, latencies: [], errors: 0, non2xx: 0, peakRssBytes: null, cpuSeconds: null, ...over });

  it('rates the runs over their total time and takes percentiles over all their latencies', () => {
    const combined = combine([
      sample({ requests: 300, seconds: 2, latencies: [5, 1, 3], errors: 1, peakRssBytes: 100, cpuSeconds: 0.5 }),
      sample({ requests: 100, seconds: 2, latencies: [2, 4], non2xx: 2, peakRssBytes: 150, cpuSeconds: 0.3 }),
    ]);
    expect(combined).to.deep.equal({
      requests: 400, seconds: 4, requestsPerSecond: 100, p50Ms: 3, p99Ms: 5, errors: 1, non2xx: 2, peakRssBytes: 150, cpuMsPerRequest: 2,
    });
  });

  it('has no peak memory or CPU time when a run could not read them', () => {
    const combined = combine([sample({ requests: 1, latencies: [1], cpuSeconds: 0.1 }), sample({ requests: 1, latencies: [1] })]);
    expect(combined.peakRssBytes).to.equal(null);
    expect(combined.cpuMsPerRequest).to.equal(null);
  });
});

describe('runLoad', () => {
  let server: Server;
  let target: LoadTarget;
  before(async () => {
    server = createServer((_request, response) => response.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    target = { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pid: process.pid, headers: {}, paths: ['/'] };
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends as fast as answered for its seconds, or, capped, ends at its number of requests', async () => {
    const free = await runLoad({ target, connections: 4, seconds: 1 });
    const capped = await runLoad({ target, connections: 4, seconds: 10, cap: { requests: 10 } });
    expect(capped.requests).to.equal(10);
    expect(capped.latencies).to.have.length(10);
    // Not the run's 10 s.
    expect(capped.seconds).to.be.below(5);
    expect(free.requests).to.be.greaterThan(100);
    expect(free.seconds).to.be.at.least(1);
  });
});
