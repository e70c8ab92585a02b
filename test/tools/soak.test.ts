import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { runTool, type ToolRun } from '../support/run-tool.ts';
import { describeDatabaseAgnostic } from '../support/database-free.ts';

/**
 * `npm run soak` as CI runs it: a short soak in a process of its own, on the
 * embedded database, or on DATABASE_URL (and REDIS_URL) when the suite runs
 * on Postgres. It must pass, answer 200s and 304s and no 5xx, print its
 * summary, write its JSON report, and leave no database behind.
 */

/** A soak past its time is stopped with SIGINT, which lets it stop its server and drop its database. */
const runSoak = (args: readonly string[], timeoutMs: number): Promise<ToolRun> => runTool('tools/soak.ts', args, { timeoutMs, stopSignal: 'SIGINT' });

describeDatabaseAgnostic?.('tools/soak.ts (npm run soak)', function () {
  // Limits that only stop a hang: beside a busy suite the soak's preparation and server start took over 100 s.
  this.timeout(200_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bcat-soak-test-'));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs a short soak that passes, with 200s and 304s, no 5xx, a summary and a JSON report', async () => {
    const out = join(dir, 'soak.json');
    const run = await runSoak(['--duration', '8', '--rate', '15', '--connections', '4', '--json', out], 180_000);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stderr).to.match(/\[soak +\d+s\] +\d+ req /);
    expect(run.stderr).to.include('soak summary:');
    expect(run.stderr).to.match(/latency overall: p50 [\d.]+ p95 [\d.]+ p99 [\d.]+ ms/);
    expect(run.stderr).to.match(/\nPASS\n/);

    const report = JSON.parse(await readFile(out, 'utf8')) as Record<string, any>;
    expect(report.database).to.equal(process.env.DATABASE_URL ? 'postgres' : 'embedded');
    expect(report.rateLimits).to.equal(process.env.DATABASE_URL && process.env.REDIS_URL ? 'redis' : 'memory');
    expect(report.options).to.deep.equal({ duration: 8, rate: 15, connections: 4, interval: 2 });
    expect(report.keys).to.deep.equal(['northwind', 'global', 'southpeak']);
    const statuses = report.totals.statuses as Record<string, number>;
    expect(statuses['200'] ?? 0).to.be.greaterThan(0);
    expect(statuses['304'] ?? 0).to.be.greaterThan(0);
    expect(Object.keys(statuses).filter((status) => Number(status) >= 500)).to.deep.equal([]);
    expect(report.totals.requestErrors).to.equal(0);
    expect(report.totals.unexpected).to.deep.equal({});
    // Bounded: 8 s at 15 req/s is 120 sends, no more.
    expect(report.sent + report.skipped).to.equal(120);
    expect(report.totals.requests).to.equal(report.sent);
    for (const kind of ['list', 'get', 'conditional', 'next-page']) expect(report.totals.byKind[kind] ?? 0, kind).to.be.greaterThan(0);
    for (const name of ['p50', 'p95', 'p99']) expect(report.totals.latencyMs[name]).to.be.a('number').and.be.greaterThan(0);
    expect(report.intervals).to.be.an('array').with.length.greaterThan(2);
    expect(report.intervals[0]).to.include.keys('atSeconds', 'requests', 'statuses', 'requestErrors', 'latencyMs', 'rssBytes', 'heapUsedBytes');
    expect(report.memory.rss.max).to.be.a('number').and.be.greaterThan(10 * 1024 * 1024);
    expect(report.memory.heapUsed.first).to.be.a('number').and.be.greaterThan(1024 * 1024);
    expect(report.memory.samples.length).to.be.greaterThan(5);
    // A busy machine can leave the server behind the rate: then its backlog's memory is not judged (soak-verdict.ts).
    if (report.skipped === 0) expect(report.memory.heapFlatness.state).to.be.oneOf(['flat', 'inconclusive']);
    expect(report.server.exitCode).to.equal(0);
    expect(report.verdict).to.deep.include({ pass: true, reasons: [] });
  });

  it('refuses a bad option with a usage line and exit code 2, starting nothing', async () => {
    const run = await runSoak(['--rate', 'fast'], 30_000);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('--rate must be a whole number');
    expect(run.stderr).to.include('usage: npm run soak');
    expect(run.stderr).not.to.include('preparing');
  });
});
