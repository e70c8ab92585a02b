/**
 * What the fault tests share: a catalog in a throwaway cluster, the real app
 * in process on a knex of its own (not the run's test database), the real
 * server as a child process, HTTP requests that can never hang, and a table
 * lock held from another connection to make the API's queries slow.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest, type Agent } from 'node:http';
import type { Socket } from 'node:net';
import type { Knex } from 'knex';
import pg from 'pg';
import { insertRecords } from '../../src/db/insert-records.ts';
import { migrateToLatest } from '../../src/db/schema/migrate-to-latest.ts';
import { openPostgres } from '../../src/db/connection/open-database.ts';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { loadRegistry, type Registry } from '../../src/engine/definition/registry.ts';
import { createKey } from '../../src/server/auth/key-admin.ts';
import type { RateLimiter } from '../../src/server/limits/rate-limiter.ts';
import { startTestServer } from '../support/test-server.ts';
import { LocalPostgres } from './local-postgres.ts';

export const BRAND = 'acme';
/** Carton sizes in the brand: a list answers `totalItems` of this. */
export const CARTON_SIZES = 30;

let registryPromise: Promise<Registry> | null = null;
export function registry(): Promise<Registry> {
  registryPromise ??= loadRegistry();
  return registryPromise;
}

/**
 * Migrates the cluster's database with the project's migrations (through
 * `openPostgres`, as `npm run db:migrate` does) and fills one brand with
 * carton sizes and a key for it.
 */
export async function prepareCatalog(url: string): Promise<{ key: string; keyId: string; brandId: string }> {
  const setup = openPostgres({ url, poolMax: 2, boundStatements: false });
  try {
    await migrateToLatest(setup.db);
    const families = await registry();
    const brandId = randomUUID();
    await insertRecords({ db: setup.db, resource: families.get('brands'), brandId: null, records: [{ id: brandId, slug: BRAND, name: 'Acme' }] });
    const start = Date.parse('2026-03-01T09:00:00.000Z');
    await insertRecords({
      db: setup.db,
      resource: families.get('carton-sizes'),
      brandId,
      records: Array.from({ length: CARTON_SIZES }, (_, i) => {
        const at = new Date(start + i * 1000).toISOString();
        return { id: randomUUID(), name: `Carton ${i}`, lengthCm: '40.00', widthCm: '30.00', heightCm: '20.00', createdAt: at, updatedAt: at };
      }),
    });
    const { id, key } = await createKey(setup.db, { brands: [BRAND], global: false, expiresAt: null });
    return { key, keyId: id, brandId };
  } finally {
    await setup.close();
  }
}

export interface CatalogCluster {
  readonly cluster: LocalPostgres;
  readonly key: string;
  readonly keyId: string;
  readonly brandId: string;
}

let catalogTemplate: Promise<{ template: LocalPostgres; catalog: Awaited<ReturnType<typeof prepareCatalog>> }> | null = null;

/**
 * A started cluster of the caller's own holding the catalog. The first call
 * makes a template cluster and prepares it (`prepareCatalog`); every call
 * copies it, stopped, so each test file gets its own cluster without paying
 * for the migrations again.
 */
export async function catalogCluster(): Promise<CatalogCluster> {
  catalogTemplate ??= (async () => {
    const template = await LocalPostgres.create();
    await template.start();
    const catalog = await prepareCatalog(template.url);
    await template.stop({ mode: 'fast' });
    return { template, catalog };
  })();
  catalogTemplate.catch(() => {
    catalogTemplate = null;
  });
  const { template, catalog } = await catalogTemplate;
  const cluster = await LocalPostgres.create({ from: template });
  try {
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return { cluster, ...catalog };
}

/**
 * A session of the test's own to watch Postgres, under an application name
 * of its own (the API's sessions are `brand-catalog-read-api`).
 */
export interface Observer {
  /** Sessions of the API in this database; only those waiting on a lock with `waitingOnLock`. */
  apiSessions(options?: { waitingOnLock?: boolean }): Promise<number>;
  close(): Promise<void>;
}

export function openObserver(url: string): Observer {
  const pool = new pg.Pool({ connectionString: url, max: 1, application_name: 'bcat-faults-observer', connectionTimeoutMillis: 5000 });
  pool.on('error', () => undefined);
  return {
    async apiSessions({ waitingOnLock = false } = {}) {
      const result = await pool.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where application_name = 'brand-catalog-read-api' and datname = current_database()
            ${waitingOnLock ? `and wait_event_type = 'Lock'` : ''}`,
      );
      return result.rows[0]!.n;
    },
    close: () => pool.end(),
  };
}

/** A response read whole, with how long it took. */
export interface TimedResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: any;
  readonly ms: number;
}

/**
 * A GET on its own connection (no keep-alive unless an agent is given) that
 * fails with "hung" past `timeoutMs` instead of waiting for ever.
 */
export function timedGet(url: string, { key, timeoutMs = 20_000, agent, onSocket }: { key?: string; timeoutMs?: number; agent?: Agent; onSocket?: (socket: Socket) => void } = {}): Promise<TimedResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET', agent: agent ?? false, headers: key ? { Authorization: `Bearer ${key}` } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: performance.now() - started });
      });
      res.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`request hung: no answer to GET ${url} within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    if (onSocket) req.once('socket', onSocket);
    req.end();
  });
}

/**
 * knex prints its pool warnings ("Connection Error: ...", "Acquire connection
 * error: <stack>") with console.log, outside the app's logger. In process they
 * would flood the test output, so they go to the collected lines instead; the
 * server-process test in postgres-down.test.ts checks what they do to stdout.
 */
function quietKnex(db: Knex, lines: Record<string, unknown>[]): void {
  const knexLogger = (db.client as { logger?: Record<string, unknown> }).logger;
  if (!knexLogger) return;
  for (const level of ['_warn', '_error'] as const) knexLogger[level] = (message: unknown) => lines.push({ knex: level.slice(1), msg: String(message) });
}

export interface AppServer {
  readonly origin: string;
  readonly db: Knex;
  readonly limiter: RateLimiter;
  readonly keyPrefix: string;
  readonly logs: Record<string, unknown>[];
  /** A path under the API base, with the key, bounded in time. */
  api(path: string, options?: { key?: string; timeoutMs?: number }): Promise<TimedResponse>;
  /** A path from the origin (`/readyz`), bounded in time. */
  get(path: string, options?: { timeoutMs?: number }): Promise<TimedResponse>;
  close(): Promise<void>;
}

/**
 * The real app in this process on a knex of its own, opened as `main.ts`
 * opens it when serving (`boundStatements`: the 4 s statement limit), with
 * in-process rate limits or the given Redis.
 */
export async function startAppServer({ url, poolMax = 10, redisUrl = null, rateLimitPoints = 100_000 }: {
  url: string;
  poolMax?: number;
  redisUrl?: string | null;
  rateLimitPoints?: number;
}): Promise<AppServer> {
  const database = openPostgres({ url, poolMax, boundStatements: true });
  const keyPrefix = `bcat:faults:${randomBytes(6).toString('hex')}`;
  const server = await startTestServer({ db: database.db, registry: await registry(), redisUrl, rateLimitPoints, keyPrefix });
  quietKnex(database.db, server.logs);
  const { origin } = server;
  return {
    origin,
    db: database.db,
    limiter: server.limiter,
    keyPrefix,
    logs: server.logs,
    api: (path, { key, timeoutMs } = {}) => timedGet(`${origin}${API_BASE_PATH}${path}`, { ...(key ? { key } : {}), ...(timeoutMs ? { timeoutMs } : {}) }),
    get: (path, { timeoutMs } = {}) => timedGet(`${origin}${path}`, timeoutMs ? { timeoutMs } : {}),
    async close() {
      await server.close();
      await database.close();
    },
  };
}

/** A lock held on a table from a connection of its own, until released. */
export interface TableLock {
  release(): Promise<void>;
}

/** `lock table <table> in access exclusive mode` in an open transaction: every read of it waits. */
export async function lockTable(url: string, table: string): Promise<TableLock> {
  const client = new pg.Client({ connectionString: url, application_name: 'bcat-faults-locker', connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('begin');
  await client.query(`lock table "${table}" in access exclusive mode`);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      try {
        await client.query('rollback');
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  };
}

/** `promise`, or a rejection naming `what` once `ms` have passed. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A cursor secret for a server process (32 characters or more). */
export const PROCESS_CURSOR_SECRET = 'faults-cursor-secret-0123456789abcdef0123456789';
