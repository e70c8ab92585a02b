import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { migrateToLatest } from '../../src/db/schema/migrate-to-latest.ts';
import { openPostgres } from '../../src/db/connection/open-database.ts';
import type { Registry } from '../../src/engine/definition/registry.ts';
import { DEMO_BRAND, OTHER_BRAND, seedDemo } from '../../src/seed/demo-seed.ts';
import { loadConfig } from '../../src/server/config.ts';
import { connect } from '../../src/db/connection/connect.ts';
import { createKey } from '../../src/server/auth/key-admin.ts';
import { isProcessRunning } from '../../src/system/is-process-running.ts';

/** A key the soak sends, and the brands it may read. */
export interface SoakKey {
  readonly label: string;
  readonly key: string;
  readonly brands: readonly string[];
}

/** The soak's own database, seeded, with its keys, and what the server process needs to serve it. */
export interface SoakDatabase {
  readonly kind: 'postgres' | 'embedded';
  /** Where it is, for the report: the database name or the DATA_DIR. */
  readonly where: string;
  /** Environment for the server process (DATABASE_URL, CURSOR_SECRET, REDIS_URL, or DATA_DIR). */
  readonly serverEnv: Readonly<Record<string, string>>;
  readonly keys: readonly SoakKey[];
  /** Drops the database or removes the folder; safe to call twice. */
  drop(): Promise<void>;
}

const PREFIX = 'bcat_soak_';

async function makeKeys(db: Knex): Promise<SoakKey[]> {
  const specs = [
    { label: 'northwind', brands: [DEMO_BRAND.slug], global: false },
    { label: 'global', brands: [], global: true },
    { label: 'southpeak', brands: [OTHER_BRAND.slug], global: false },
  ];
  const keys: SoakKey[] = [];
  for (const spec of specs) {
    const { key } = await createKey(db, { brands: spec.brands, global: spec.global, expiresAt: null, name: `soak ${spec.label}` });
    keys.push({ label: spec.label, key, brands: spec.global ? [DEMO_BRAND.slug, OTHER_BRAND.slug] : spec.brands });
  }
  return keys;
}

/**
 * With an admin URL: creates `bcat_soak_<pid>` beside the database it names
 * (dropping those of soaks that died before they could), migrates, seeds and
 * makes keys. Only a loopback Postgres is accepted: the soak never targets
 * another machine.
 */
export async function preparePostgres({ adminUrl, redisUrl, registry }: { adminUrl: string; redisUrl: string | null; registry: Registry }): Promise<SoakDatabase> {
  const url = new URL(adminUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error(`the soak only runs on a loopback Postgres, not ${url.hostname}`);
  if (redisUrl && !['127.0.0.1', 'localhost', '[::1]'].includes(new URL(redisUrl).hostname)) throw new Error('the soak only runs on a loopback Redis');
  const name = `${PREFIX}${process.pid}`;
  const admin = openPostgres({ url: adminUrl, poolMax: 1, boundStatements: false });
  let dropped = false;
  const drop = async (): Promise<void> => {
    if (dropped) return;
    dropped = true;
    try {
      await admin.db.raw(`drop database if exists "${name}" with (force)`);
    } finally {
      await admin.close();
    }
  };
  try {
    const found = (await admin.db.raw(`select datname from pg_database where datname like '${PREFIX}%'`)) as { rows: { datname: string }[] };
    for (const { datname } of found.rows) {
      const pid = Number(/^bcat_soak_(\d+)$/.exec(datname)?.[1] ?? 0);
      if (pid > 0 && pid !== process.pid && !isProcessRunning(pid)) await admin.db.raw(`drop database if exists "${datname}" with (force)`);
    }
    await admin.db.raw(`drop database if exists "${name}" with (force)`);
    await admin.db.raw(`create database "${name}"`);
    url.pathname = `/${name}`;
    const database = openPostgres({ url: url.toString(), poolMax: 2, boundStatements: false });
    let keys: SoakKey[];
    try {
      await migrateToLatest(database.db);
      await seedDemo({ db: database.db, registry });
      keys = await makeKeys(database.db);
    } finally {
      await database.close();
    }
    const serverEnv: Record<string, string> = { DATABASE_URL: url.toString(), CURSOR_SECRET: randomBytes(32).toString('hex') };
    if (redisUrl) serverEnv.REDIS_URL = redisUrl;
    return { kind: 'postgres', where: name, serverEnv, keys, drop };
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
}

/**
 * Without DATABASE_URL: a fresh embedded database in a temporary DATA_DIR,
 * created, migrated and seeded here (as the server's first start would), with
 * the soak's keys. The connection is closed, and the folder's lock released,
 * before the server opens it: PGlite serves one process at a time.
 */
export async function prepareEmbedded({ registry }: { registry: Registry }): Promise<SoakDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bcat-soak-'));
  let removed = false;
  const drop = async (): Promise<void> => {
    if (removed) return;
    removed = true;
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const connection = await connect(loadConfig({ DATA_DIR: dataDir }));
    let keys: SoakKey[];
    try {
      await seedDemo({ db: connection.database.db, registry });
      keys = await makeKeys(connection.database.db);
    } finally {
      await connection.close();
    }
    return { kind: 'embedded', where: dataDir, serverEnv: { DATA_DIR: dataDir }, keys, drop };
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
}
