/**
 * `npm run bench:live`: live changes (CONTRACT.md §7) on one instance. 1,000
 * clients (100 brands, 10 each) wait on the carton sizes' changes while a
 * writer commits one insert a second to a random brand; measured: commit to
 * answer (p50, p99, every client of the brand), the server's CPU and the
 * database's committed transactions a second. Then the same with nobody
 * writing, with one client waiting, and with none; last, what a waited call
 * is held to: as many clients getting a record by id every `wait` seconds
 * over as many connections (the same calls a second, each a get); and the
 * followers again while a brand nobody follows is written in transactions
 * that overlap (what wakes nobody must cost nothing). A call's
 * CPU is its phase's over the idle instance's. On DATABASE_URL's server
 * (default postgres://postgres@127.0.0.1:5432/postgres) in a database of its
 * own, dropped at the end; writes bench/results/live.json.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startSoakServer } from '../../tools/soak/soak-server.ts';
import { dropDatabase } from '../data/bench-database.ts';
import { runPhase, type LivePhase, type PhaseResult } from './live-phase.ts';
import { renderLiveReport } from './live-report.ts';
import { benchCursorSecret, LIVE_DATABASE, prepareLiveDatabase } from './live-setup.ts';

const { values } = parseArgs({ options: {
  brands: { type: 'string' }, 'per-brand': { type: 'string' }, seconds: { type: 'string' }, wait: { type: 'string' }, out: { type: 'string' }, phases: { type: 'string' },
  only: { type: 'string' }, 'cpu-prof': { type: 'string' }, 'node-args': { type: 'string' },
} });
const BRANDS = Math.min(1000, Number(values.brands ?? 100));
// 10 clients a brand at most: --brands 1000 is the 10,000 followers of one instance (raise the file descriptors first: docs/BENCHMARKS.md).
const PER_BRAND = Math.min(10, Number(values['per-brand'] ?? 10));
const SECONDS = Math.min(600, Number(values.seconds ?? 60));
const WAIT = Math.min(60, Number(values.wait ?? 20));
const OUT = values.out ?? 'bench/results/live.json';
/** How many of the six phases to run, in order (1: only the loaded one). */
const PHASES = Math.max(1, Math.min(6, Number(values.phases ?? 6)));
/** One phase alone, by its number (1 to 6): `--only 2` is the waiting clients with nobody writing, the one to profile. */
const ONLY = values.only === undefined ? null : Math.max(1, Math.min(6, Number(values.only)));
/** A folder for the server's CPU profile (Node's --cpu-prof, written when it stops): what a phase's CPU goes to. */
const CPU_PROFILE_DIR = values['cpu-prof'] ?? null;
/** More of Node's options for the server, space-separated (`--max-semi-space-size=64`, `--heapsnapshot-signal=SIGUSR2`): what an experiment changes. */
const NODE_ARGS = (values['node-args'] ?? '').split(' ').filter(Boolean);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const database = await prepareLiveDatabase({ adminUrl, brands: BRANDS });
const server = await startSoakServer({ env: {
  DATABASE_URL: database.url, CURSOR_SECRET: benchCursorSecret(), RATE_LIMIT_POINTS: '100000000', RATE_LIMIT_WINDOW_SECONDS: '60', KEY_CACHE_SECONDS: process.env.KEY_CACHE_SECONDS ?? '10',
}, nodeArgs: [...NODE_ARGS, ...(CPU_PROFILE_DIR === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE_DIR}`])] });
const results: PhaseResult[] = [];
try {
  const all = database.brands;
  const phases: LivePhase[] = [
    { name: `${BRANDS * PER_BRAND} waiting, one commit a second`, clients: 'follow', brands: all, perBrand: PER_BRAND, writing: true },
    { name: `${BRANDS * PER_BRAND} waiting, nobody writing`, clients: 'follow', brands: all, perBrand: PER_BRAND, writing: false },
    { name: '1 waiting, one commit a second', clients: 'follow', brands: all.slice(0, 1), perBrand: 1, writing: true },
    { name: 'nobody waiting, one commit a second', clients: 'follow', brands: [], perBrand: 0, writing: true },
    { name: `${BRANDS * PER_BRAND} getting a record every ${WAIT} s, nobody writing`, clients: 'get', brands: all, perBrand: PER_BRAND, writing: false },
    { name: `${BRANDS * PER_BRAND} waiting, a brand nobody follows written`, clients: 'follow', brands: all, perBrand: PER_BRAND, writing: false, elsewhere: true },
  ];
  for (const phase of phases.filter((_, i) => (ONLY === null ? i < PHASES : i === ONLY - 1))) {
    process.stderr.write(`${phase.name}: ${SECONDS} s...\n`);
    const result = await runPhase({ phase, database, server, seconds: SECONDS, waitSeconds: WAIT });
    process.stderr.write(`  ${JSON.stringify(result)}\n`);
    results.push(result);
  }
} finally {
  if (server.warnings.length > 0) process.stderr.write(`server warnings (first 5 of ${server.warnings.length}):\n${server.warnings.slice(0, 5).map((w) => JSON.stringify(w).slice(0, 400)).join('\n')}\n`);
  await server.stop();
  await database.close();
  await dropDatabase({ adminUrl, name: LIVE_DATABASE });
}
const postgres = results.length > 0 ? 'PostgreSQL 15 (127.0.0.1)' : null;
const machine = { cpus: cpus().length, loadAverageAtEnd: loadavg().map((n) => Math.round(n * 100) / 100) };
const report = { at: new Date().toISOString(), machine, brands: BRANDS, perBrand: PER_BRAND, waitSeconds: WAIT, secondsPerPhase: SECONDS, postgres, node: process.version, phases: results };
writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(renderLiveReport(results));
