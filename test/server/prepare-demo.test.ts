import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { readDemoKey } from '../../src/db/connection/embedded-data-dir.ts';
import type { Registry } from '../../src/engine/definition/registry.ts';
import { findGrant } from '../../src/server/auth/api-keys.ts';
import { listKeys, revokeKey } from '../../src/server/auth/key-admin.ts';
import { prepareDemo } from '../../src/server/prepare-demo.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';

/** The first start of the embedded database, and every start after it. */
describe('prepareDemo', function () {
  this.timeout(120_000);
  let db: Knex;
  let registry: Registry;
  let dataDir: string;
  let first: Awaited<ReturnType<typeof prepareDemo>>;

  before(async () => {
    ({ db, registry } = await testDatabase());
    await resetDatabase(db);
    dataDir = await mkdtemp(join(tmpdir(), 'bcat-demo-'));
    first = await prepareDemo({ db, registry, dataDir });
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await resetDatabase(db);
  });

  it('loads the demo data the first time, and keeps a key for the demo brand in the data folder', async () => {
    expect(first).to.include({ brand: 'northwind', seeded: true });
    expect(await readDemoKey(dataDir)).to.equal(first.key);
    expect(await findGrant(db, { key: first.key, brandSlug: 'northwind' })).to.deep.include({ allowed: true });
    expect(await findGrant(db, { key: first.key, brandSlug: 'southpeak' }), 'for the demo brand only').to.deep.include({ allowed: false });
    expect((await listKeys(db)).map((key) => key.name)).to.deep.equal(['demo key (embedded database)']);
  });

  it('loads nothing again on the next start, and prints the same key', async () => {
    const again = await prepareDemo({ db, registry, dataDir });
    expect(again).to.deep.equal({ ...first, seeded: false });
    expect(await listKeys(db)).to.have.length(1);
  });

  it('replaces a demo key that was revoked or has expired', async () => {
    const [kept] = await listKeys(db);
    await revokeKey(db, kept!.id);
    const replaced = await prepareDemo({ db, registry, dataDir });
    expect(replaced.key).to.not.equal(first.key);
    expect(await readDemoKey(dataDir)).to.equal(replaced.key);
    expect(await findGrant(db, { key: replaced.key, brandSlug: 'northwind' })).to.deep.include({ allowed: true });

    const live = (await listKeys(db)).find((key) => key.revokedAt === null)!;
    await db('api_keys').where({ id: live.id }).update({ expires_at: new Date(Date.now() - 60_000) });
    const renewed = await prepareDemo({ db, registry, dataDir });
    expect(renewed.key).to.not.equal(replaced.key);
    expect(await readDemoKey(dataDir)).to.equal(renewed.key);
    expect(renewed.seeded).to.equal(false);
  });
});
