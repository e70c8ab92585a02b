import { resolve } from 'node:path';
import { DEFAULT_STATEMENTS_PER_CONNECTION } from '../db/query/prepared-statements.ts';

/** Settings from the environment (CONTRACT.md §5), checked once at start-up. */
export interface Config {
  /** Postgres to serve; null for the embedded database. */
  readonly databaseUrl: string | null;
  /** Streaming replicas of it that serve list and get queries (DATABASE_REPLICA_URLS, comma-separated); empty: the primary serves all. */
  readonly databaseReplicaUrls: readonly string[];
  /** Largest Postgres pool per process, for the primary and for each replica. */
  readonly databasePoolMax: number;
  /** Prepared statements each Postgres connection keeps for the engine's queries, least recently used dropped first; 0: none. */
  readonly databaseStatementCache: number;
  /** `transaction` when DATABASE_URL and the replica URLs go through a transaction-mode pooler (DATABASE_POOLER): no session state on them. */
  readonly databasePooler: DatabasePooler;
  /** A direct connection to the primary for what needs a session (LISTEN for revocations); null: those poll (DATABASE_SESSION_URL). */
  readonly databaseSessionUrl: string | null;
  /** Redis for rate limits; null for in-process counters. */
  readonly redisUrl: string | null;
  readonly port: number;
  /** Requests one key may make per window. */
  readonly rateLimitPoints: number;
  readonly rateLimitWindowSeconds: number;
  /** Failed authentications one client (IP) may make per minute before it is refused for the rest of it. */
  readonly authFailureLimit: number;
  /** Seconds a key lookup is kept in process (0: never); revocations reach every instance at once regardless. */
  readonly keyCacheSeconds: number;
  /** Take the client's address from `X-Forwarded-For` (behind a proxy or load balancer that sets it). */
  readonly trustProxy: boolean;
  /** Signs cursors; null means "generated and kept with the embedded data". */
  /** `CURSOR_SECRET`: the first signs cursors and sync tokens, each verifies; null: the embedded database's own. */
  readonly cursorSecrets: readonly string[] | null;
  /** Folder of the embedded database, its cursor secret and its demo key. */
  readonly dataDir: string;
  readonly logLevel: string;
  /** Days a deletion stays visible to the changes feed (CONTRACT.md §6): older tombstones are pruned, older sync tokens are 410. */
  readonly syncRetentionDays: number;
  /** Worker processes of `npm run start:cluster`; defaults to one per CPU. */
  readonly clusterWorkers: number | null;
  /** Web pages of other origins that may read the API (CORS_ORIGINS): none by default. */
  readonly corsOrigins: CorsOrigins;
}

/**
 * The origins whose pages may read the API from a browser: `'*'` for any, or
 * exact serialized origins (`https://app.example.com`, `http://localhost:5173`)
 * as a browser sends them in `Origin`. Empty: no CORS at all.
 */
export type CorsOrigins = '*' | readonly string[];

/** What sits between the service and Postgres: nothing (null), or a pooler in transaction mode (CONTRACT.md §5). */
export type DatabasePooler = 'transaction' | null;

/** Defaults: a key may make 1,000 requests a minute (about 16 a second, sustained). */
export const DEFAULT_SYNC_RETENTION_DAYS = 30;

export const DEFAULTS = Object.freeze({
  syncRetentionDays: DEFAULT_SYNC_RETENTION_DAYS,
  port: 3000,
  rateLimitPoints: 1000,
  rateLimitWindowSeconds: 60,
  authFailureLimit: 30,
  keyCacheSeconds: 10,
  databasePoolMax: 10,
  databaseStatementCache: DEFAULT_STATEMENTS_PER_CONNECTION,
  dataDir: '.data',
  logLevel: 'info',
});

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function integer({ env, name, fallback, min, max }: { env: NodeJS.ProcessEnv; name: string; fallback: number; min: number; max: number }): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not '${raw}'`);
  }
  return value;
}

function flag({ env, name }: { env: NodeJS.ProcessEnv; name: string }): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name} must be true or false, not '${raw}'`);
}

const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;

function replicaUrls({ env, databaseUrl }: { env: NodeJS.ProcessEnv; databaseUrl: string | null }): string[] {
  const urls = (env.DATABASE_REPLICA_URLS ?? '').split(',').map((url) => url.trim()).filter((url) => url !== '');
  if (urls.length > 0 && databaseUrl === null) {
    throw new ConfigError('DATABASE_REPLICA_URLS needs DATABASE_URL: replicas copy a primary, and the embedded database has none');
  }
  // The URL may carry a password: name the position, never the value.
  const bad = urls.findIndex((url) => !POSTGRES_URL.test(url));
  if (bad >= 0) throw new ConfigError(`DATABASE_REPLICA_URLS: entry ${bad + 1} is not a postgres:// URL`);
  return urls;
}

/**
 * CORS_ORIGINS: `*`, or a comma-separated list of exact origins. An entry is
 * compared byte for byte with the browser's `Origin`, so anything that could
 * never match one (a path, a trailing slash, a wildcard host, `null`) stops
 * start-up rather than silently allowing nothing. Letter case and a default
 * port are normalised the way browsers serialise an origin.
 */
function corsOrigins(env: NodeJS.ProcessEnv): CorsOrigins {
  const entries = (env.CORS_ORIGINS ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.includes('*')) {
    if (entries.length > 1) throw new ConfigError("CORS_ORIGINS: '*' allows every origin and must stand alone");
    return '*';
  }
  return Object.freeze([...new Set(entries.map(exactOrigin))]);
}

function exactOrigin(entry: string): string {
  const problem = `CORS_ORIGINS: '${entry}' is not an origin (scheme://host[:port], as a browser sends it in Origin)`;
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new ConfigError(problem);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${problem}: only http and https origins can be listed`);
  if (url.hostname.includes('*')) throw new ConfigError(`${problem}: wildcard hosts are not supported; list each origin`);
  if (url.href !== `${url.origin}/` || entry.endsWith('/')) throw new ConfigError(`${problem}; did you mean '${url.origin}'?`);
  return url.origin;
}

/**
 * DATABASE_POOLER: unset (a direct connection, or a pooler in session mode,
 * which is the same to the service) or `transaction`. Anything else stops
 * start-up: a misspelt value would otherwise leave session state on a
 * transaction pooler's shared connections.
 */
function databasePooler({ env, databaseUrl }: { env: NodeJS.ProcessEnv; databaseUrl: string | null }): DatabasePooler {
  const raw = (env.DATABASE_POOLER ?? '').trim();
  if (raw === '' || raw === 'none') return null;
  if (raw !== 'transaction') throw new ConfigError(`DATABASE_POOLER must be 'transaction' (or unset for a direct connection), not '${raw}'`);
  if (databaseUrl === null) throw new ConfigError('DATABASE_POOLER needs DATABASE_URL: the embedded database has no pooler');
  return 'transaction';
}

/**
 * DATABASE_SESSION_URL, the direct connection for LISTEN: given, or
 * DATABASE_URL itself when that is direct. Behind a transaction pooler
 * without it there is none, and revocations are polled (open-services.ts).
 */
function sessionUrl({ env, databaseUrl, pooler }: { env: NodeJS.ProcessEnv; databaseUrl: string | null; pooler: DatabasePooler }): string | null {
  const raw = env.DATABASE_SESSION_URL?.trim() || null;
  if (raw === null) return pooler === null ? databaseUrl : null;
  if (databaseUrl === null) throw new ConfigError('DATABASE_SESSION_URL needs DATABASE_URL: the embedded database has no other connection');
  if (!POSTGRES_URL.test(raw)) throw new ConfigError('DATABASE_SESSION_URL is not a postgres:// URL');
  return raw;
}

/**
 * `CURSOR_SECRET`: one secret, or a comma-separated list that rotates it
 * (CONTRACT.md §5): the first signs, every one listed verifies. Each has 32
 * characters or more; spaces around a comma are ignored.
 */
function cursorSecretList(raw: string | undefined): readonly string[] | null {
  if (!raw || raw.trim() === '') return null;
  const secrets = raw.split(',').map((secret) => secret.trim());
  if (secrets.some((secret) => secret === '')) throw new ConfigError('CURSOR_SECRET has an empty secret in its list: separate secrets with single commas');
  if (secrets.some((secret) => secret.length < 32)) {
    throw new ConfigError(`CURSOR_SECRET${secrets.length > 1 ? ': each secret of the list' : ''} must have at least 32 characters (try: openssl rand -hex 32)`);
  }
  return Object.freeze(secrets);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || null;
  const pooler = databasePooler({ env, databaseUrl });
  const cursorSecrets = cursorSecretList(env.CURSOR_SECRET);
  const logLevel = env.LOG_LEVEL || DEFAULTS.logLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return Object.freeze({
    databaseUrl,
    databaseReplicaUrls: Object.freeze(replicaUrls({ env, databaseUrl })),
    databasePoolMax: integer({ env, name: 'DATABASE_POOL_MAX', fallback: DEFAULTS.databasePoolMax, min: 1, max: 1000 }),
    // A transaction pooler hands each statement to any server connection: nothing is prepared unless asked
    // (PgBouncer 1.21+ with max_prepared_statements keeps protocol-level statements; 1.18, Debian 12's, does not).
    databaseStatementCache: integer({ env, name: 'DATABASE_STATEMENT_CACHE', fallback: pooler === null ? DEFAULTS.databaseStatementCache : 0, min: 0, max: 10_000 }),
    databasePooler: pooler,
    databaseSessionUrl: sessionUrl({ env, databaseUrl, pooler }),
    redisUrl: env.REDIS_URL || null,
    port: integer({ env, name: 'PORT', fallback: DEFAULTS.port, min: 0, max: 65535 }),
    rateLimitPoints: integer({ env, name: 'RATE_LIMIT_POINTS', fallback: DEFAULTS.rateLimitPoints, min: 1, max: 1_000_000_000 }),
    rateLimitWindowSeconds: integer({ env, name: 'RATE_LIMIT_WINDOW_SECONDS', fallback: DEFAULTS.rateLimitWindowSeconds, min: 1, max: 86_400 }),
    authFailureLimit: integer({ env, name: 'AUTH_FAILURE_LIMIT', fallback: DEFAULTS.authFailureLimit, min: 1, max: 1_000_000_000 }),
    keyCacheSeconds: integer({ env, name: 'KEY_CACHE_SECONDS', fallback: DEFAULTS.keyCacheSeconds, min: 0, max: 3600 }),
    trustProxy: flag({ env, name: 'TRUST_PROXY' }),
    cursorSecrets,
    dataDir: resolve(env.DATA_DIR || DEFAULTS.dataDir),
    logLevel,
    syncRetentionDays: integer({ env, name: 'SYNC_RETENTION_DAYS', fallback: DEFAULTS.syncRetentionDays, min: 1, max: 36_500 }),
    clusterWorkers: env.CLUSTER_WORKERS ? integer({ env, name: 'CLUSTER_WORKERS', fallback: 1, min: 1, max: 256 }) : null,
    corsOrigins: corsOrigins(env),
  });
}

/**
 * What serving needs beyond the commands: with Postgres, a cursor secret that
 * every instance shares (the embedded database keeps its own).
 */
export function checkServeConfig(config: Config): void {
  if (config.databaseUrl !== null && config.cursorSecrets === null) {
    throw new ConfigError(
      'CURSOR_SECRET is required with DATABASE_URL, and must be the same on every instance (try: openssl rand -hex 32)',
    );
  }
}
