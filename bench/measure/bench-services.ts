import { randomBytes } from 'node:crypto';
import { openPostgres } from '../../src/db/connection/open-database.ts';
import { createKey } from '../../src/server/auth/key-admin.ts';
import { AREAS } from '../../src/engine/definition/normalize-resource.ts';
import { FLOOR_PREFIX } from '../floors/floor-app.ts';
import { startService, type ServiceProcess } from './service-process.ts';
import { SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';

/**
 * Requests a key may make in a window on the server under test: more than any
 * run makes, so the limiter counts every request (in Redis, as in production)
 * but never refuses one. The config's largest allowed value is 10^9.
 */
const RATE_LIMIT_POINTS = 100_000_000;
/**
 * The server logs at `warn`: at `info` it writes a JSON line per request to
 * stdout, which the bench would have to drain, and the run would measure the
 * pipe as much as the server. The floor logs nothing.
 */
const SERVER_LOG_LEVEL = 'warn';

/** The server and the two floors, running, and the key the server is asked with. */
export interface BenchServices {
  readonly server: ServiceProcess;
  /** The floor sending its SQL unprepared, as a bare handler does. */
  readonly floor: ServiceProcess;
  /** The same floor sending its SQL as prepared statements, as the server does: the fair comparison for CPU per request. */
  readonly preparedFloor: ServiceProcess;
  readonly key: string;
  /** A global key restricted to the catalog area (products among it): what a restricted key costs a get. */
  readonly restrictedKey: string;
}

/** The area the restricted key reads: the products the cases ask for are in it. */
export const RESTRICTED_AREA = 'catalog';

/**
 * A global key for the run, made with the project's key admin; restricted to
 * `RESTRICTED_AREA` when `restricted`.
 */
async function createBenchKey(url: string, restricted = false): Promise<string> {
  const database = openPostgres({ url, poolMax: 1, boundStatements: false });
  try {
    const scope = restricted ? { areas: [RESTRICTED_AREA], known: { families: [], areas: AREAS } } : {};
    return (await createKey(database.db, { brands: [], global: true, expiresAt: null, name: restricted ? 'bench-restricted' : 'bench', ...scope })).key;
  } finally {
    await database.close();
  }
}

/** Where and how a side of the bench runs: its database, its pool, the list that gets it once it is up, and the Node to run it on (this one's unless given). */
export interface ServiceSetup {
  readonly url: string;
  readonly poolMax: number;
  readonly running: ServiceProcess[];
  readonly node?: string;
  /** More Node options and environment for the process (the allocation probe). */
  readonly extra?: { readonly nodeArgs: readonly string[]; readonly env: Readonly<Record<string, string>> };
}

/**
 * Starts the server on the bench's database, with auth and rate limits on
 * (counted in Redis unless `redisUrl` is null), and makes the key it is asked
 * with; adds it to `running` as soon as it is up.
 */
export async function startBenchServer({ url, redisUrl, poolMax, running, node, extra }: ServiceSetup & { redisUrl: string | null }): Promise<{ server: ServiceProcess; key: string }> {
  const key = await createBenchKey(url);
  const server = await startService({
    name: 'server',
    script: 'src/server/main.ts',
    env: {
      DATABASE_URL: url,
      REDIS_URL: redisUrl ?? '',
      CURSOR_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_POINTS: String(RATE_LIMIT_POINTS),
      RATE_LIMIT_WINDOW_SECONDS: '60',
      DATABASE_POOL_MAX: String(poolMax),
      LOG_LEVEL: SERVER_LOG_LEVEL,
      NODE_ENV: 'production',
      ...extra?.env,
    },
    readyPath: '/readyz',
    readyOk: true,
    node,
    nodeArgs: [...SERVER_NODE_FLAGS, ...(extra?.nodeArgs ?? [])],
  });
  running.push(server);
  return { server, key };
}

/** Starts a floor (`prepared`: sending its SQL as named prepared statements), adding it to `running` once it is up. */
export async function startFloor({ name, prepared, url, poolMax, running, node, extra }: ServiceSetup & { name: string; prepared: boolean }): Promise<ServiceProcess> {
  const floor = await startService({
    name,
    script: 'bench/floors/floor-server.ts',
    env: { DATABASE_URL: url, DATABASE_POOL_MAX: String(poolMax), NODE_ENV: 'production', FLOOR_PREPARED: prepared ? '1' : '0', ...extra?.env },
    readyPath: FLOOR_PREFIX,
    node,
    nodeArgs: extra?.nodeArgs,
  });
  running.push(floor);
  return floor;
}

/**
 * Starts the server (on the bench's database, with Redis, auth and rate
 * limits on) and the two floors, each in a process of its own, adding each to
 * `running` as soon as it is up so a failure stops what did start.
 */
export async function startBenchServices({ url, redisUrl, poolMax, running }: {
  url: string;
  redisUrl: string | null;
  poolMax: number;
  running: ServiceProcess[];
}): Promise<BenchServices> {
  const { server, key } = await startBenchServer({ url, redisUrl, poolMax, running });
  const restrictedKey = await createBenchKey(url, true);
  const floor = await startFloor({ name: 'floor', prepared: false, url, poolMax, running });
  return { server, floor, preparedFloor: await startFloor({ name: 'prepared floor', prepared: true, url, poolMax, running }), key, restrictedKey };
}
