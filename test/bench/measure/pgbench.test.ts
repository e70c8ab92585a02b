import { expect } from 'chai';
import { parsePgbenchLog, parsePgbenchOutput, parsePgbenchProgress, runPgbench, startPgbench } from '../../../bench/measure/pgbench.ts';
import { testDatabase } from '../../support/test-database.ts';

/** The closing report of pgbench 15, as it prints it. */
const REPORT = `transaction type: /tmp/script.sql
scaling factor: 1
query mode: simple
number of clients: 2
number of threads: 2
maximum number of tries: 1
duration: 1 s
number of transactions actually processed: 2215
number of failed transactions: 0 (0.000%)
latency average = 0.422 ms
initial connection time = 71.442 ms
tps = 2368.710352 (without initial connection time)
`;

describe('parsePgbenchOutput', () => {
  it("reads the transactions, the rate and the mean latency from pgbench's report", () => {
    expect(parsePgbenchOutput(REPORT)).to.deep.equal({ transactions: 2215, tps: 2368.710352, latencyMs: 0.422 });
  });

  it('throws with the output when the report is not there', () => {
    expect(() => parsePgbenchOutput('pgbench: error: connection to server failed')).to.throw(/pgbench gave no result:\npgbench: error: connection/);
  });
});

// pgbench needs a Postgres server: on the embedded database only the parsing is tested.
describe('parsePgbenchProgress', () => {
  it('adds up the progress lines: each one\'s rate over the time since the one before', () => {
    const output = 'pgbench (15.20)\nprogress: 1.0 s, 39.0 tps, lat 4.186 ms stddev 4.822, 0 failed, lag 1.914 ms\n'
      + 'progress: 2.0 s, 51.8 tps, lat 10.624 ms stddev 17.504, 0 failed\nprogress: 4.0 s, 50.0 tps, lat 1 ms\n';
    expect(parsePgbenchProgress(output)).to.deep.equal({ transactions: 39 + 52 + 100, seconds: 4 });
    expect(parsePgbenchProgress('pgbench (15.20)\n')).to.deep.equal({ transactions: 0, seconds: 0 });
  });
});

describe('parsePgbenchLog', () => {
  it("reads each transaction's end and latency from pgbench's per-transaction log, in the order they ended, without those that did not run", () => {
    // The last line, cut short by a stop, is not one.
    const log = '0 1 2500 0 1764300000 250000 120\n1 1 1500 0 1764300000 100000 80\n0 2 skipped 0 1764300001 0 900\n\n0 3 2500 0 1764300001 25';
    expect(parsePgbenchLog(log)).to.deep.equal([
      { endedAtMs: 1764300000100, latencyMs: 1.5 },
      { endedAtMs: 1764300000250, latencyMs: 2.5 },
    ]);
  });
});

const onPostgres = process.env.DATABASE_URL ? describe : null;

onPostgres?.('runPgbench (Postgres)', function () {
  this.timeout(20_000);

  it('runs a script with variables and session settings, and reports what it did', async () => {
    const { url } = await testDatabase();
    const result = await runPgbench({
      url: url!, clients: 2, seconds: 1, variables: { one: 1 },
      settings: { synchronous_commit: 'off' },
      // Fails (and pgbench with it) unless the setting and the variable both arrived.
      script: `select 1 / ((current_setting('synchronous_commit') = 'off')::int * :one);\n`,
    });
    expect(result.transactions).to.be.greaterThan(0);
    expect(result.tps).to.be.greaterThan(0);
  });

  it('runs in the background at a target rate until stopped, and says what it did', async () => {
    const { url } = await testDatabase();
    const load = await startPgbench({ url: url!, clients: 2, rate: 50, script: 'select 1;\n' });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const { transactions, seconds } = await load.stop();
    expect(seconds).to.be.within(1, 3);
    // About 50 a second: pgbench keeps to the rate, whatever the machine can do.
    expect(transactions / seconds).to.be.within(20, 80);
  });

  it('logs every transaction of a background run when asked, with when it ended', async () => {
    const { url } = await testDatabase();
    const started = Date.now();
    const load = await startPgbench({ url: url!, clients: 2, rate: 1000, script: 'select 1;\n', logTransactions: true });
    // pgbench writes its log out a block at a time: wait until both threads' logs on disk pass half a second.
    while ((await load.loggedUntil()) < started + 500) await new Promise((resolve) => setTimeout(resolve, 100));
    const until = await load.loggedUntil();
    const { logged } = await load.stop();
    const whole = logged.filter((t) => t.endedAtMs <= until);
    expect(whole.length).to.be.greaterThan(50);
    expect(whole[0]!.endedAtMs).to.be.within(started, until);
    expect(whole.every((t, i) => i === 0 || t.endedAtMs >= whole[i - 1]!.endedAtMs)).to.equal(true);
    // Latencies in pgbench's whole microseconds: a run on a busy machine logged one of 0, so most, not all, are above it.
    expect(whole.every((t) => Number.isFinite(t.latencyMs) && t.latencyMs >= 0)).to.equal(true);
    expect(whole.filter((t) => t.latencyMs > 0).length).to.be.greaterThan(whole.length / 2);
  });

  it('reports a background run that failed by itself at its stop', async () => {
    const { url } = await testDatabase();
    const load = await startPgbench({ url: url!, clients: 1, script: 'select 1 / 0;\n' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const failure = await load.stop().then(() => null, (error: Error) => error);
    expect(failure?.message).to.match(/pgbench failed[^:]*:[\s\S]*division by zero/);
  });

  it('fails with what pgbench said when the script fails', async () => {
    const { url } = await testDatabase();
    let failure: Error | null = null;
    try {
      await runPgbench({ url: url!, clients: 1, seconds: 1, script: 'select 1 / 0;\n' });
    } catch (error) {
      failure = error as Error;
    }
    expect(failure?.message).to.match(/pgbench exited with code \d+:[\s\S]*division by zero/);
  });
});
