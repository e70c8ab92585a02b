/**
 * `npm run bench:live`: live changes (CONTRACT.md §7) on one instance. 1,000
 * clients (100 brands, 10 each) wait on the carton sizes' changes while a
 * writer commits one insert a second to a random brand; measured: commit to
 * answer (p50, p99, every client of the brand), the server's CPU and the
 * database's committed transactions a second. Then the same with nobody
 * writing, with one client waiting, and with none. On DATABASE_URL's server
 * (default postgres://postgres@127.0.0.1:5432/postgres) in a database of its
 * own, dropped at the end; writes bench/results/live.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { percentileOfSorted } from '../../tools/shared/percentile.ts';
import { startSoakServer } from '../../tools/soak/soak-server.ts';
import { dropDatabase } from '../data/bench-database.ts';
import { startLiveClients } from './live-clients.ts';
import { benchCursorSecret, LIVE_DATABASE, prepareLiveDatabase, type LiveDatabase } from './live-setup.ts';

const { values } = parseArgs({ options: {
  brands: { type: 'string' }, 'per-brand': { type: 'string' }, seconds: { type: 'string' }, wait: { type: 'string' }, out: { type: 'string' }, phases: { type: 'string' },
  only: { type: 'string' }, 'cpu-prof': { type: 'string' },
} });
const BRANDS = Math.min(1000, Number(values.brands ?? 100));
// 10 clients a brand at most: --brands 1000 is the 10,000 followers of one instance (raise the file descriptors first: docs/BENCHMARKS.md).
const PER_BRAND = Math.min(10, Number(values['per-brand'] ?? 10));
const SECONDS = Math.min(600, Number(values.seconds ?? 60));
const WAIT = Math.min(60, Number(values.wait ?? 20));
const OUT = values.out ?? 'bench/results/live.json';
/** How many of the four phases to run, in order (1: only the loaded one). */
const PHASES = Math.max(1, Math.min(4, Number(values.phases ?? 4)));
/** One phase alone, by its number (1 to 4): `--only 2` is the waiting clients with nobody writing, the one to profile. */
const ONLY = values.only === undefined ? null : Math.max(1, Math.min(4, Number(values.only)));
/** A folder for the server's CPU profile (Node's --cpu-prof, written when it stops): what a phase's CPU goes to. */
const CPU_PROFILE_DIR = values['cpu-prof'] ?? null;
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Seconds of CPU the process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** The process's resident memory, MB, from /proc. */
function residentMb(pid: number): number | null {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : null;
}
const round = (n: number | null, digits = 1): number | null => (n === null ? null : Math.round(n * 10 ** digits) / 10 ** digits);

interface PhaseResult {
  readonly name: string;
  readonly waiting: number;
  readonly writing: boolean;
  readonly seconds: number;
  readonly commits: number;
  /** Answers the clients received in the whole phase (their full syncs included). */
  readonly calls: number;
  readonly deliveries: number;
  readonly expectedDeliveries: number;
  readonly latencyMs: { p50: number | null; p99: number | null; max: number | null };
  readonly serverCpuPercent: number | null;
  /** The server's resident memory at the end of the phase's measurement, MB. */
  readonly serverRssMb: number | null;
  /** Answers per second the clients got during the measurement (waited calls, their full syncs excluded). */
  readonly callsPerSecond: number | null;
  readonly databaseTransactionsPerSecond: number | null;
  readonly errors: readonly string[];
}

async function phase({ name, database, server, clientBrands, perBrand, writing }: {
  name: string;
  database: LiveDatabase;
  server: { origin: string; pid: number };
  clientBrands: LiveDatabase['brands'];
  perBrand: number;
  writing: boolean;
}): Promise<PhaseResult> {
  const committedAt = new Map<string, number>();
  const latencies: number[] = [];
  let measuring = false;
  const clients = startLiveClients({
    origin: server.origin, brands: clientBrands, perBrand, wait: WAIT,
    onItem: (id, at) => {
      const committed = committedAt.get(id);
      if (committed !== undefined && measuring) latencies.push(at - committed);
    },
  });
  const waiting = clientBrands.length * perBrand;
  for (let tries = 0; (await waitingOnServer(server.origin)) < waiting && tries < 600; tries++) await sleep(100);
  await sleep(12_000); // the full syncs' burst over, and its counts flushed (an idle backend reports within 10 s)
  const writer = startWriter({ database, committedAt, writing, counts: (brandId) => clientBrands.some((b) => b.id === brandId) });
  await sleep(1000);
  measuring = true;
  const cpu0 = cpuSeconds(server.pid);
  const tx0 = await database.commits();
  const calls0 = clients.calls();
  const t0 = performance.now();
  const counted = writer.commits();
  await sleep(SECONDS * 1000);
  const tx1 = await database.commits();
  const cpu1 = cpuSeconds(server.pid);
  const calls1 = clients.calls();
  const rss = residentMb(server.pid);
  const elapsed = (performance.now() - t0) / 1000;
  const commits = writer.commits();
  await writer.stop();
  await sleep(1500); // the last commit's answers
  measuring = false;
  await clients.stop();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    name, waiting, writing, seconds: round(elapsed)!,
    commits: commits - counted,
    calls: clients.calls(),
    deliveries: latencies.length,
    expectedDeliveries: (commits - counted) * perBrand,
    latencyMs: { p50: round(percentileOfSorted(sorted, 50)), p99: round(percentileOfSorted(sorted, 99)), max: round(sorted.at(-1) ?? null) },
    serverCpuPercent: round(((cpu1 - cpu0) / elapsed) * 100, 2),
    serverRssMb: round(rss),
    callsPerSecond: round((calls1 - calls0) / elapsed),
    databaseTransactionsPerSecond: round((tx1 - tx0) / elapsed),
    errors: clients.errors.slice(0, 10),
  };
}

/** The server's own count of waiting requests (`bcat_live_waiting_requests` on /metrics). */
async function waitingOnServer(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  return Number(/^bcat_live_waiting_requests (\d+)/m.exec(text)?.[1] ?? 0);
}

/** One insert a second to a random brand (or nothing, when not `writing`), its commit time kept by row id. */
function startWriter({ database, committedAt, writing, counts }: {
  database: LiveDatabase;
  committedAt: Map<string, number>;
  writing: boolean;
  counts: (brandId: string) => boolean;
}): { commits(): number; stop(): Promise<void> } {
  let commits = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      if (writing) {
        const brand = database.brands[Math.floor(Math.random() * database.brands.length)]!;
        const [row] = (await database.db('carton_sizes').insert({ brand_id: brand.id, name: `w${commits}` }).returning('id')) as { id: string }[];
        committedAt.set(row!.id, performance.now());
        if (counts(brand.id)) commits += 1;
      }
      await sleep(Math.max(0, 1000 - (performance.now() - started)));
    }
  })();
  return {
    commits: () => commits,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

const database = await prepareLiveDatabase({ adminUrl, brands: BRANDS });
const server = await startSoakServer({ env: {
  DATABASE_URL: database.url, CURSOR_SECRET: benchCursorSecret(), RATE_LIMIT_POINTS: '100000000', RATE_LIMIT_WINDOW_SECONDS: '60', KEY_CACHE_SECONDS: process.env.KEY_CACHE_SECONDS ?? '10',
}, nodeArgs: CPU_PROFILE_DIR === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE_DIR}`] });
const results: PhaseResult[] = [];
try {
  const all = database.brands;
  for (const [name, brands, perBrand, writing] of [
    [`${BRANDS * PER_BRAND} waiting, one commit a second`, all, PER_BRAND, true],
    [`${BRANDS * PER_BRAND} waiting, nobody writing`, all, PER_BRAND, false],
    ['1 waiting, one commit a second', all.slice(0, 1), 1, true],
    ['nobody waiting, one commit a second', [], 0, true],
  ].filter((_, i) => (ONLY === null ? i < PHASES : i === ONLY - 1)) as [string, LiveDatabase['brands'], number, boolean][]) {
    process.stderr.write(`${name}: ${SECONDS} s...\n`);
    const result = await phase({ name, database, server, clientBrands: brands, perBrand, writing });
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
const report = { at: new Date().toISOString(), brands: BRANDS, perBrand: PER_BRAND, waitSeconds: WAIT, secondsPerPhase: SECONDS, postgres, node: process.version, phases: results };
writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
// By what they are, so one phase run alone (--only) still lands in its place.
/** CPU ms of one waited call: the phase's CPU over the idle instance's (the phase without waiters), by its answers a second. */
function perCall(phase: PhaseResult | undefined, idle: PhaseResult | undefined): number | null {
  if (!phase || phase.serverCpuPercent === null || !phase.callsPerSecond) return null;
  return round(((phase.serverCpuPercent - (idle?.serverCpuPercent ?? 0)) * 10) / phase.callsPerSecond, 3);
}
/** Memory of one waiter, KB: the phase's RSS over the idle instance's, by its waiters. */
function perWaiter(phase: PhaseResult | undefined, idle: PhaseResult | undefined): number | null {
  if (!phase || phase.serverRssMb === null || !idle?.serverRssMb || phase.waiting === 0) return null;
  return round(((phase.serverRssMb - idle.serverRssMb) * 1024) / phase.waiting, 1);
}
const loaded = results.find((r) => r.waiting > 1 && r.writing);
const quiet = results.find((r) => r.waiting > 1 && !r.writing);
const one = results.find((r) => r.waiting === 1);
const none = results.find((r) => r.waiting === 0);
const ratio = loaded && one && one.databaseTransactionsPerSecond ? round(loaded.databaseTransactionsPerSecond! / one.databaseTransactionsPerSecond, 2) : null;
process.stdout.write([
  `| phase | waiting | commit to answer p50 / p99 (ms) | server CPU (% of a core) | answers/s | server RSS (MB) | database transactions/s |`,
  `|---|---|---|---|---|---|---|`,
  ...results.map((r) => `| ${r.name} | ${r.waiting} | ${r.latencyMs.p50 ?? '-'} / ${r.latencyMs.p99 ?? '-'} | ${r.serverCpuPercent} | ${r.callsPerSecond} | ${r.serverRssMb} | ${r.databaseTransactionsPerSecond} |`),
  '',
  `targets: p50 <= 300 ms: ${loaded?.latencyMs.p50}; p99 <= 1000 ms: ${loaded?.latencyMs.p99}; transactions/s with ${loaded?.waiting} waiting / with 1 waiting <= 1.5: ${ratio}; CPU with nobody writing <= 3 %: ${quiet?.serverCpuPercent}`,
  `a waited call's CPU (nobody writing, the idle instance's subtracted): ${perCall(quiet, none)} ms; memory a waiter: ${perWaiter(quiet, none)} KB`,
  `deliveries: ${loaded?.deliveries} of ${loaded?.expectedDeliveries} expected; none waiting: ${none?.databaseTransactionsPerSecond} transactions/s`,
  '',
].join('\n'));
