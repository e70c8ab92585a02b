import { expect } from 'chai';
import { driveSoak } from '../../../tools/soak/soak-driver.ts';
import type { SoakMix } from '../../../tools/soak/soak-mix.ts';
import { soakRequest } from '../../../tools/soak/soak-request.ts';
import type { SoakOutcome } from '../../../tools/soak/soak-sender.ts';
import { startLocalServer } from './soak-http.ts';

const target = { key: { label: 'northwind', key: 'k', brands: ['northwind'] }, brand: 'northwind' };
const mix: SoakMix = { next: () => soakRequest('list', target, '/'), learn: () => {} };

describe('driveSoak', () => {
  it('sends rate × duration requests paced by the clock and reports every answer', async () => {
    const local = await startLocalServer((_req, res) => res.end('{}'));
    const outcomes: SoakOutcome[] = [];
    try {
      const started = performance.now();
      const result = await driveSoak({ origin: `http://127.0.0.1:${local.port}`, mix, rate: 100, durationMs: 300, connections: 2, onOutcome: (o) => outcomes.push(o) });
      // Every send is due once; one is skipped only when 16 are waiting, which a server answering at once
      // reaches only if this process stalls (a busy machine's gate run skipped 2 of 30): the next test covers skipping.
      expect(result.sent + result.skipped).to.equal(30);
      expect(result.sent).to.be.at.least(2 * 8);
      expect(result.abandoned).to.equal(0);
      expect(performance.now() - started, 'paced over the duration, not sent at once').to.be.at.least(250);
      expect(outcomes.map((o) => o.status), 'an answer reported for every send').to.deep.equal(new Array(result.sent).fill(200));
    } finally {
      await local.close();
    }
  });

  it('skips sends past 8 waiting per connection, and abandons what is unanswered after the drain', async () => {
    const local = await startLocalServer(() => {}); // never answers
    try {
      const result = await driveSoak({ origin: `http://127.0.0.1:${local.port}`, mix, rate: 200, durationMs: 100, connections: 1, onOutcome: () => {}, drainMs: 50 });
      expect(result).to.deep.equal({ sent: 8, skipped: 12, abandoned: 8 });
    } finally {
      await local.close();
    }
  });

  it('stops when aborted, and targets 127.0.0.1 only', async () => {
    const local = await startLocalServer((_req, res) => res.end('{}'));
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const result = await driveSoak({ origin: `http://127.0.0.1:${local.port}`, mix, rate: 100, durationMs: 10_000, connections: 2, onOutcome: () => {}, signal: controller.signal });
      expect(result.sent).to.be.below(100);
    } finally {
      await local.close();
    }
    let refused: unknown = null;
    await driveSoak({ origin: 'http://localhost:1', mix, rate: 1, durationMs: 1, connections: 1, onOutcome: () => {} }).catch((error: unknown) => (refused = error));
    expect((refused as Error).message).to.equal('the soak only targets 127.0.0.1, not localhost');
  });
});
