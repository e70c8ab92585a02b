import { expect } from 'chai';
import type { SoakMix } from '../../../tools/soak/soak-mix.ts';
import { SoakRecorder } from '../../../tools/soak/soak-recorder.ts';
import { soakRequest } from '../../../tools/soak/soak-request.ts';
import { runSoakTraffic } from '../../../tools/soak/soak-traffic.ts';
import { startLocalServer } from './soak-http.ts';

const target = { key: { label: 'northwind', key: 'k', brands: ['northwind'] }, brand: 'northwind' };
const mix: SoakMix = { next: () => soakRequest('list', target, '/'), learn: () => {} };

describe('runSoakTraffic', () => {
  it('records every answer, samples memory at both ends and every second, prints interval lines, and closes the recorder', async function () {
    this.timeout(10_000);
    const local = await startLocalServer((_req, res) => res.end('{}'));
    const recorder = new SoakRecorder();
    const lines: string[] = [];
    let samples = 0;
    const server = { origin: `http://127.0.0.1:${local.port}`, sampleMemory: async () => ({ heapUsedBytes: 1000 + samples++, rssBytes: 5000 }) };
    try {
      const { result, elapsedSeconds } = await runSoakTraffic({
        options: { duration: 1.2, rate: 50, connections: 2, interval: 1 }, server, mix, recorder, signal: new AbortController().signal, log: (line) => lines.push(line),
      });
      expect(result).to.deep.equal({ sent: 60, skipped: 0, abandoned: 0 });
      expect(elapsedSeconds).to.be.within(1.1, 5);
      expect(recorder.totals()).to.deep.include({ requests: 60, statuses: { 200: 60 }, requestErrors: 0 });
      // Before, after one second, and after.
      expect(recorder.memory.length).to.be.at.least(3);
      expect(recorder.memory[0]!.atSeconds).to.equal(0);
      expect(lines.length, 'a line after the first second and one for the rest').to.equal(2);
      expect(recorder.intervals.reduce((sum, interval) => sum + interval.requests, 0)).to.equal(60);
      recorder.record({ request: mix.next(), status: 200, latencyMs: 1, error: null });
      expect(recorder.totals().requests, 'closed: late outcomes are ignored').to.equal(60);
    } finally {
      await local.close();
    }
  });
});
