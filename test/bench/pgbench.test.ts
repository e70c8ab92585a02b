import { expect } from 'chai';
import { parsePgbenchOutput, runPgbench } from '../../bench/pgbench.ts';
import { testDatabase } from '../support/test-database.ts';

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
