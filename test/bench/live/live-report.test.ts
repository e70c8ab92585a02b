import { expect } from 'chai';
import type { PhaseResult } from '../../../bench/live/live-phase.ts';
import { liveFigures, perCall, perWaiter, renderLiveReport } from '../../../bench/live/live-report.ts';

const phase = (name: string, over: Partial<PhaseResult>): PhaseResult => ({
  name, waiting: 0, getting: 0, writing: false, elsewhere: false, seconds: 60, commits: 0, calls: 0, deliveries: 0, expectedDeliveries: 0,
  latencyMs: { p50: null, p99: null, max: null }, serverCpuPercent: 1, serverRssMb: 100, callsPerSecond: 0, databaseTransactionsPerSecond: 1, errors: [], ...over,
});

const loaded = phase('1000 waiting, one commit a second', { waiting: 1000, writing: true, latencyMs: { p50: 150, p99: 280, max: 300 }, databaseTransactionsPerSecond: 7, deliveries: 600, expectedDeliveries: 600 });
const quiet = phase('1000 waiting, nobody writing', { waiting: 1000, serverCpuPercent: 3.5, serverRssMb: 150, callsPerSecond: 50 });
const one = phase('1 waiting, one commit a second', { waiting: 1, writing: true, databaseTransactionsPerSecond: 5 });
const none = phase('nobody waiting, one commit a second', { writing: true, serverCpuPercent: 0.5, serverRssMb: 110 });
const gets = phase('1000 getting a record every 20 s, nobody writing', { getting: 1000, serverCpuPercent: 2, callsPerSecond: 50 });
const elsewhere = phase('1000 waiting, a brand nobody follows written', { waiting: 1000, elsewhere: true, serverCpuPercent: 3.6, databaseTransactionsPerSecond: 12 });

describe('the live bench report', () => {
  it("takes a call's CPU over the idle instance's, by the answers a second, and a waiter's memory over the idle instance's", () => {
    // (3.5 - 0.5) % of a core is 30 ms a second, over 50 calls a second.
    expect(perCall(quiet, none)).to.equal(0.6);
    expect(perCall(gets, none)).to.equal(0.3);
    expect(perCall(quiet, undefined)).to.equal(0.7);
    expect(perCall(phase('x', { callsPerSecond: 0 }), none)).to.equal(null);
    // 40 MB over 1,000 waiters.
    expect(perWaiter(quiet, none)).to.equal(41);
    expect(perWaiter(quiet, undefined)).to.equal(null);
  });

  it('finds each phase by what it is, and holds a waited call to a get at the same rate', () => {
    const figures = liveFigures([gets, elsewhere, none, one, quiet, loaded]);
    expect(figures).to.deep.include({ loaded, quiet, none, elsewhere, transactionsRatio: 1.4, waitedCallMs: 0.6, getMs: 0.3, waitedCallOverGet: 2, waiterKb: 41 });
    expect(liveFigures([quiet])).to.deep.include({ waitedCallMs: 0.7, getMs: null, waitedCallOverGet: null, transactionsRatio: null });
  });

  it('prints a row per phase and the targets', () => {
    const text = renderLiveReport([loaded, quiet, one, none, gets, elsewhere]);
    expect(text).to.contain('with a brand nobody follows written in overlapping transactions (it wakes nobody): server CPU 3.6 % (nobody writing: 3.5 %), database transactions/s 12');
    expect(text).to.contain('| 1000 getting a record every 20 s, nobody writing | 0 | 1000 | - / - | 2 | 50 | 100 | 1 |');
    expect(text).to.contain('| 1000 waiting, one commit a second | 1000 | 0 | 150 / 280 |');
    expect(text).to.contain("a waited call's CPU / a get's at the same rate <= 2: 2");
    expect(text).to.contain('transactions/s with 1000 waiting / with 1 waiting <= 1.5: 1.4');
    expect(text).to.contain("a waited call's CPU (nobody writing, the idle instance's subtracted): 0.6 ms; a get's, at the same rate over as many connections: 0.3 ms; memory a waiter: 41 KB");
  });
});
