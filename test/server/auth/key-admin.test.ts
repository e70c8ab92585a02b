import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { findGrant, hashKey } from '../../../src/server/auth/api-keys.ts';
import { createKey, KeyError, listKeys, revokeKey } from '../../../src/server/auth/key-admin.ts';
import { createBrand, createTestKey } from '../../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../../support/test-database.ts';

/** What the `keys` command does: create, list and revoke keys. */
describe('key administration', () => {
  beforeEach(async () => {
    await resetDatabase((await testDatabase()).db);
    await createBrand('acme');
    await createBrand('globex');
  });

  it('stores only the SHA-256 hash: the key and its secret appear in no row', async () => {
    const { db } = await testDatabase();
    const created = [
      await createTestKey({ brands: ['acme'] }),
      await createTestKey({ brands: ['acme', 'globex'] }),
      await createTestKey({ global: true, expiresAt: new Date('2030-01-01T00:00:00Z') }),
    ];
    const keyRows = (await db('api_keys').select('*')) as Record<string, unknown>[];
    const linkRows = (await db('api_key_brands').select('*')) as Record<string, unknown>[];
    expect(keyRows).to.have.length(3);
    const everything = JSON.stringify([keyRows, linkRows]);
    for (const { id, key } of created) {
      const row = keyRows.find((r) => r.id === id)!;
      expect(row, id).to.not.equal(undefined);
      expect(row.key_hash).to.equal(hashKey(key));
      expect(row.key_hash).to.match(/^[0-9a-f]{64}$/);
      expect(everything).to.not.contain(key);
      const secret = key.slice('bcat_sk_'.length);
      expect(everything).to.not.contain(secret);
      // Not even a large piece of it (the 4-character hint is the most kept).
      for (let i = 0; i + 8 <= secret.length; i++) expect(everything).to.not.contain(secret.slice(i, i + 8));
    }
  });

  it('refuses a key that is both or neither global and scoped, and one for an unknown brand', async () => {
    const { db } = await testDatabase();
    for (const options of [
      { brands: [], global: false, expiresAt: null },
      { brands: ['acme'], global: true, expiresAt: null },
      { brands: ['acme', 'no-such-brand'], global: false, expiresAt: null },
    ]) {
      let error: unknown = null;
      try {
        await createKey(db, options);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(options)).to.be.instanceOf(KeyError);
    }
    expect(await db('api_keys').count({ n: '*' }).first().then((r) => Number(r!.n))).to.equal(0);
  });

  it('lists keys with a hint but never the secret, and revokes them', async () => {
    const { db } = await testDatabase();
    const a = await createTestKey({ brands: ['globex', 'acme'] });
    const b = await createTestKey({ global: true, expiresAt: new Date('2030-01-01T00:00:00Z') });
    const listed = await listKeys(db);
    expect(listed.map((k) => k.id)).to.have.members([a.id, b.id]);
    const summaryA = listed.find((k) => k.id === a.id)!;
    expect(summaryA).to.deep.include({ global: false, brands: ['acme', 'globex'], hint: a.key.slice(-4), expiresAt: null, revokedAt: null });
    expect(listed.find((k) => k.id === b.id)).to.deep.include({ global: true, brands: [], expiresAt: '2030-01-01T00:00:00.000Z' });
    const text = JSON.stringify(listed);
    expect(text).to.not.contain(a.key.slice(8));
    expect(text).to.not.contain(b.key.slice(8));
    expect(await revokeKey(db, a.id)).to.equal(true);
    expect(await revokeKey(db, a.id), 'a revoked key cannot be revoked again').to.equal(false);
    expect((await listKeys(db)).find((k) => k.id === a.id)!.revokedAt).to.match(/^\d{4}-\d{2}-\d{2}T/);
    expect(await findGrant(db, { key: a.key, brandSlug: 'acme' })).to.equal(null);
  });

  it('keeps the name a key is given, and the time it was made', async () => {
    const { db } = await testDatabase();
    const before = Date.now();
    const { id } = await createKey(db, { brands: ['acme'], global: false, expiresAt: null, name: 'warehouse sync' });
    const [summary] = await listKeys(db);
    expect(summary).to.deep.include({ id, name: 'warehouse sync', global: false, brands: ['acme'] });
    expect(Date.parse(summary!.createdAt)).to.be.within(before - 60_000, Date.now() + 60_000);
    await createTestKey({ global: true });
    expect((await listKeys(db)).map((k) => k.name), 'in the order made; a key made without a name has none').to.deep.equal(['warehouse sync', null]);
  });

  it('answers false when revoking an id no key has', async () => {
    const { db } = await testDatabase();
    expect(await revokeKey(db, randomUUID())).to.equal(false);
  });
});
