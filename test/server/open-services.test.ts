import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { lockDataDir } from '../../src/db/connection/embedded-data-dir.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openServices } from '../../src/server/open-services.ts';
import { createKey } from '../../src/server/auth/key-admin.ts';
import { collectingLogger } from '../support/collecting-logger.ts';
import { testDatabase } from '../support/test-database.ts';
import { waitFor } from '../support/wait-for.ts';
import { copyOfSeededDataDir } from '../support/seeded-data-dir.ts';

describe('openServices', () => {
  it('opens the configured database with the primary as the only read target, and in-process rate limits without REDIS_URL', async function () {
    this.timeout(60_000);
    await inOwnDataDir(async ({ env, url, dataDir }) => {
      const services = await openServices({ config: loadConfig({ ...env, RATE_LIMIT_POINTS: '7' }), logger: collectingLogger().logger });
      try {
        expect(services.connection.database.kind).to.equal(url ? 'postgres' : 'embedded');
        expect(services.reads.state()).to.deep.equal([{ name: 'primary', available: true }]);
        expect([services.limiter.backend, services.limiter.points]).to.deep.equal(['memory', 7]);
        expect((await services.connection.database.db.raw('select 1 as one')).rows).to.deep.equal([{ one: 1 }]);
        // On Postgres the schema is read in the background; the embedded database is ready from the start.
        await services.readiness.whenReady;
        expect(services.readiness.ready()).to.equal(true);
      } finally {
        await services.release();
      }
      const afterRelease = await services.connection.database.db.raw('select 1').then(() => 'answered', () => 'refused');
      expect(afterRelease, 'the database is closed').to.equal('refused');
      if (!url) await (await lockDataDir(dataDir))(); // the embedded database's lock is given back
    });
  });

  it('refreshes the key cache\'s grants in use on the primary, and stops that on release', async function () {
    this.timeout(60_000);
    await inOwnDataDir(async ({ env }) => {
      const services = await openServices({ config: loadConfig({ ...env, KEY_CACHE_SECONDS: '1' }), logger: collectingLogger().logger });
      const { keyCache } = services;
      const db = services.connection.database.db;
      let closed = 0;
      const close = keyCache.close;
      keyCache.close = async () => {
        closed += 1;
        await close();
      };
      try {
        const slug = `refresh-${randomUUID().slice(0, 8)}`;
        await db('brands').insert({ slug, name: 'Refresh' });
        const { key } = await createKey(db, { brands: [slug], global: false, expiresAt: null });
        let refreshes = 0;
        db.on('query', (query: { sql: string }) => {
          if (query.sql.includes('with ordinality') && query.sql.includes('api_keys')) refreshes += 1;
        });
        // Steady use of the key (a lookup when it is not cached: on Postgres, the cache is on once revocations are followed).
        await waitFor(async () => (keyCache.cached({ key, brandSlug: slug }) ?? (await keyCache.lookup(db, { key, brandSlug: slug }))) && refreshes > 0, {
          intervalMs: 50,
          what: 'a refresh round',
        });
      } finally {
        await services.release();
      }
      expect(closed, 'release closes the key cache (its refresh timer)').to.equal(1);
    });
  });
});

/** Runs `body` with the settings that open the test database (or, without one, the embedded database in a folder of its own), then removes the folder. */
async function inOwnDataDir(body: (opened: { env: Record<string, string>; url: string | null; dataDir: string }) => Promise<void>): Promise<void> {
  const { url } = await testDatabase();
  // On the embedded database, a folder the migrations have run in already (seeded-data-dir.ts): the subject is not a first start.
  const dataDir = url ? await mkdtemp(join(tmpdir(), 'bcat-open-services-')) : await copyOfSeededDataDir('bcat-open-services-');
  try {
    const env: Record<string, string> = url ? { DATABASE_URL: url, CURSOR_SECRET: 'x'.repeat(32) } : { DATA_DIR: dataDir };
    await body({ env, url: url ?? null, dataDir });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
