/**
 * `npm run bench:pooler -- [--seconds 5] [--rounds 3] [--connections 16]`:
 * what a transaction pooler costs a get by id (docs/DEPLOYMENT.md, "Behind a transaction pooler").
 * One server process per side on the demo data set, loaded in turn, round
 * after round (interleaved, so the machine's noise falls on every side):
 *
 * - direct, prepared: the default on a direct connection;
 * - direct, unprepared: DATABASE_STATEMENT_CACHE=0;
 * - through PgBouncer in transaction mode: DATABASE_POOLER=transaction, which
 *   prepares nothing (Debian 12's PgBouncer 1.18 keeps no prepared statement).
 *
 * For each: requests/s, p50, and CPU per request of the server process, of
 * the Postgres backends serving its database, and of PgBouncer. Needs the
 * machine's Postgres (DATABASE_URL, any database: its server is used) and
 * Debian's PgBouncer; writes Markdown to bench/results/.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openPostgres } from '../src/db/connection/open-database.ts';
import { loadRegistry } from '../src/engine/definition/registry.ts';
import { createKey } from '../src/server/auth/key-admin.ts';
import { DEMO_BRAND, seedDemo } from '../src/seed/demo-seed.ts';
import { startPgBouncer } from '../test/support/local-pgbouncer.ts';
import { databaseUrl, dropDatabase, migrate, recreateDatabase } from './data/bench-database.ts';
import { combine, runLoad, warmUp, type RunSample } from './measure/measure.ts';
import { cpuSeconds } from './measure/process-stats.ts';
import { startService, type ServiceProcess } from './measure/service-process.ts';
import { thousands } from './report/format.ts';
import { SERVER_NODE_FLAGS } from '../src/server/node-flags.ts';

const NAME = 'bcat_bench_pooler';
const { values: options } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '16' } } });
const seconds = Number(options.seconds);
const rounds = Number(options.rounds);
const connections = Number(options.connections);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const log = (message: string): void => void process.stderr.write(`[bench:pooler] ${message}\n`);

interface Side {
  readonly name: string;
  readonly env: Record<string, string>;
  server?: ServiceProcess;
  readonly samples: RunSample[];
  postgresCpu: number;
  poolerCpu: number;
}

/** CPU seconds so far of the Postgres backends connected to the bench's database. */
async function backendCpu(admin: pg.Client): Promise<number> {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [NAME]);
  let total = 0;
  for (const { pid } of rows) total += (await cpuSeconds(pid)) ?? 0;
  return total;
}

async function prepareData(url: string): Promise<{ key: string; ids: string[] }> {
  await recreateDatabase({ adminUrl, name: NAME });
  await migrate(url);
  const database = openPostgres({ url, poolMax: 2, boundStatements: false });
  try {
    await seedDemo({ db: database.db, registry: await loadRegistry() });
    const { key } = await createKey(database.db, { brands: [], global: true, expiresAt: null, name: 'bench:pooler' });
    const { rows } = (await database.db.raw('select p.id from products p join brands b on b.id = p.brand_id where b.slug = ? order by p.id limit 20', [DEMO_BRAND.slug])) as { rows: { id: string }[] };
    return { key, ids: rows.map((row) => row.id) };
  } finally {
    await database.close();
  }
}

async function measureSide({ side, admin, paths, key, poolerPid }: { side: Side; admin: pg.Client; paths: string[]; key: string; poolerPid: number }): Promise<void> {
  const target = { origin: side.server!.origin, pid: side.server!.pid, headers: { authorization: `Bearer ${key}` }, paths };
  const [postgresBefore, poolerBefore] = [await backendCpu(admin), (await cpuSeconds(poolerPid)) ?? 0];
  side.samples.push(await runLoad({ target, connections, seconds }));
  side.postgresCpu += (await backendCpu(admin)) - postgresBefore;
  side.poolerCpu += ((await cpuSeconds(poolerPid)) ?? 0) - poolerBefore;
}

function render(sides: readonly Side[]): string {
  const rows = sides.map((side) => {
    const m = combine(side.samples);
    const per = (cpu: number): string => (m.requests > 0 ? `${Math.round((cpu * 1e6) / m.requests)} µs` : '-');
    return `| ${side.name} | ${thousands(Math.round(m.requestsPerSecond))} | ${m.p50Ms.toFixed(2)} ms | ${m.cpuMsPerRequest === null ? '-' : `${Math.round(m.cpuMsPerRequest * 1000)} µs`} | ${per(side.postgresCpu)} | ${per(side.poolerCpu)} | ${m.non2xx + m.errors} |`;
  });
  return [
    `# A get by id through a transaction pooler (${new Date().toISOString()})`,
    '',
    `Demo data set, ${connections} connections, ${rounds} interleaved rounds of ${seconds} s per side, autocannon in the bench process.`,
    '',
    '| side | req/s | p50 | server CPU / req | Postgres CPU / req | PgBouncer CPU / req | non-2xx |',
    '|---|--:|--:|--:|--:|--:|--:|',
    ...rows,
    '',
  ].join('\n');
}

const url = databaseUrl(adminUrl, NAME);
const running: { stop(): Promise<void> }[] = [];
const admin = new pg.Client({ connectionString: adminUrl });
try {
  log('loading the demo data set');
  const { key, ids } = await prepareData(url);
  const bouncer = await startPgBouncer({ postgresUrl: url });
  running.push(bouncer);
  const common = { CURSOR_SECRET: randomBytes(32).toString('hex'), RATE_LIMIT_POINTS: '100000000', LOG_LEVEL: 'warn', NODE_ENV: 'production', DATABASE_POOL_MAX: '8' };
  const sides: Side[] = [
    { name: 'direct, prepared', env: { ...common, DATABASE_URL: url }, samples: [], postgresCpu: 0, poolerCpu: 0 },
    { name: 'direct, unprepared', env: { ...common, DATABASE_URL: url, DATABASE_STATEMENT_CACHE: '0' }, samples: [], postgresCpu: 0, poolerCpu: 0 },
    { name: 'PgBouncer 1.18, transaction mode', env: { ...common, DATABASE_URL: bouncer.url(NAME), DATABASE_POOLER: 'transaction', DATABASE_SESSION_URL: url }, samples: [], postgresCpu: 0, poolerCpu: 0 },
  ];
  for (const side of sides) {
    side.server = await startService({ name: side.name, script: 'src/server/main.ts', nodeArgs: SERVER_NODE_FLAGS, env: side.env, readyPath: '/readyz', readyOk: true });
    running.push(side.server);
  }
  await admin.connect();
  const paths = ids.map((id) => `/api/public/v1/brands/${DEMO_BRAND.slug}/products/${id}`);
  for (const side of sides) await warmUp({ target: { origin: side.server!.origin, pid: side.server!.pid, headers: { authorization: `Bearer ${key}` }, paths }, connections, seconds: 2 });
  for (let round = 1; round <= rounds; round += 1) {
    for (const side of sides) {
      log(`round ${round}: ${side.name}`);
      await measureSide({ side, admin, paths, key, poolerPid: bouncer.pid });
    }
  }
  const markdown = render(sides);
  await mkdir('bench/results', { recursive: true });
  const out = `bench/results/${new Date().toISOString().slice(0, 16).replace(':', '-')}-pooler.md`;
  await writeFile(out, markdown);
  process.stdout.write(`${markdown}\nwritten to ${out}\n`);
} finally {
  await admin.end().catch(() => undefined);
  for (const service of running.reverse()) await service.stop().catch(() => undefined);
  await dropDatabase({ adminUrl, name: NAME }).catch(() => undefined);
}
