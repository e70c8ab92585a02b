import { expect } from 'chai';
import { buildSoakReport } from '../../../tools/soak/build-soak-report.ts';
import { SoakRecorder } from '../../../tools/soak/soak-recorder.ts';
import { soakRequest } from '../../../tools/soak/soak-request.ts';

const key = { label: 'northwind', key: 'k', brands: ['northwind'] };
const request = soakRequest('list', { key, brand: 'northwind' }, '/');

/** A recorder with `statuses` answered and a flat memory of `samples` samples. */
function recorded(statuses: number[], samples = 12): SoakRecorder {
  const recorder = new SoakRecorder();
  for (const status of statuses) recorder.record({ request, status, latencyMs: 2, error: null });
  for (let i = 0; i < samples; i++) recorder.sampleMemory({ atSeconds: i, heapUsedBytes: 50e6, rssBytes: 100e6 });
  recorder.endInterval(samples);
  recorder.close();
  return recorder;
}

const report = (recorder: SoakRecorder, skipped = 0) => buildSoakReport({
  options: { duration: 12, rate: 10, connections: 2, interval: 6 },
  database: { kind: 'postgres', serverEnv: { REDIS_URL: 'redis://127.0.0.1:6379' }, keys: [key] },
  rateLimit: { points: 360, windowSeconds: 10 },
  families: 20,
  traffic: { result: { sent: 3, skipped, abandoned: 0 }, elapsedSeconds: 12.3 },
  recorder,
  server: { pid: 42, exitCode: 0, warnings: Array.from({ length: 25 }, (_, i) => ({ msg: `w${i}` })) },
});

describe('buildSoakReport', () => {
  it('reports the run with its settings, totals, memory and the server, and passes a clean flat run', () => {
    const built = report(recorded([200, 200, 200]));
    expect(built).to.deep.include({ database: 'postgres', rateLimits: 'redis', rateLimitPoints: 360, rateLimitWindowSeconds: 10, keys: ['northwind'], families: 20, elapsedSeconds: 12.3, sent: 3, skipped: 0 });
    expect(built.options).to.deep.equal({ duration: 12, rate: 10, connections: 2, interval: 6 });
    expect(built.totals.statuses).to.deep.equal({ 200: 3 });
    expect(built.memory.heapFlatness.state).to.equal('flat');
    expect(built.memory.rss).to.deep.equal({ first: 100e6, last: 100e6, max: 100e6 });
    expect(built.memory.samples).to.have.length(12);
    expect(built.intervals).to.have.length(1);
    expect(built.server).to.deep.include({ pid: 42, exitCode: 0, warnings: 25 });
    expect(built.server.firstWarnings).to.have.length(20);
    expect(built.verdict).to.deep.equal({ pass: true, reasons: [], notes: [] });
  });

  it('fails on a 5xx or an unexpected status, and notes skipped sends', () => {
    const built = report(recorded([200, 500, 404]), 2);
    expect(built.verdict.pass).to.equal(false);
    expect(built.verdict.reasons).to.deep.equal(['1 answers were 5xx', '2 answers had another status than the request expected']);
    expect(built.verdict.notes).to.deep.equal(['2 sends were skipped: the server fell behind the rate']);
    expect(report(recorded([200], 0)).verdict.reasons, 'memory not measured').to.include('no heap used samples: the memory of the server was not measured');
  });
});
