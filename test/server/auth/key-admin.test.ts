import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { findGrant, hashKey } from '../../../src/server/auth/api-keys.ts';
import { createKey, KeyError, listKeys, revokeKey, rotateKey } from '../../../src/server/auth/key-admin.ts';
import { createTestKey, resetToBrands } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

/** What the `keys` command does: create, list and revoke keys. */
describe('key administration', () => {
  beforeEach(async () => {
    await resetToBrands('acme', 'globex');
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

  describe('least privilege and rotation', () => {
    const known = { families: ['shipments', 'invoices', 'orders', 'skus'], areas: ['logistics', 'finance', 'catalog'] };

    it('keeps a key\'s families, areas and own limit, and carries them in its grant', async () => {
      const { db } = await testDatabase();
      const { id, key } = await createKey(db, { brands: ['acme'], global: false, expiresAt: null, families: ['invoices', 'invoices'], areas: ['logistics'], rateLimit: 30, known });
      const [summary] = await listKeys(db);
      expect(summary).to.deep.include({ id, families: ['invoices'], areas: ['logistics'], rateLimit: 30, lastUsedAt: null });
      const grant = (await findGrant(db, { key, brandSlug: 'acme' }))!;
      expect(grant.rateLimit).to.equal(30);
      expect([...grant.restriction!.families]).to.deep.equal(['invoices']);
      expect([...grant.restriction!.areas]).to.deep.equal(['logistics']);
      const open = await createTestKey({ brands: ['acme'] });
      expect(await findGrant(db, { key: open.key, brandSlug: 'acme' })).to.deep.include({ restriction: null, rateLimit: null });
    });

    it('refuses an unknown family or area, naming it, and creates nothing', async () => {
      const { db } = await testDatabase();
      for (const [scope, message] of [
        [{ families: ['shipmentz'] }, "no family 'shipmentz' (did you mean 'shipments'?)"],
        [{ areas: ['finace'] }, "no area 'finace' (did you mean 'finance'?): the areas are logistics, finance, catalog"],
        [{ rateLimit: 0 }, 'a rate limit is a whole number of requests per window, above 0'],
      ] as const) {
        const error = await createKey(db, { brands: ['acme'], global: false, expiresAt: null, known, ...scope }).then(() => null, (e: Error) => e);
        expect(error).to.be.instanceOf(KeyError);
        expect(error!.message).to.contain(message);
      }
      expect(await listKeys(db)).to.deep.equal([]);
    });

    it('rotates a key: the new one has its brands, families, areas, limit and name; the old one ends after the overlap', async () => {
      const { db } = await testDatabase();
      const old = await createKey(db, { brands: ['acme', 'globex'], global: false, expiresAt: null, name: 'forwarder', areas: ['logistics'], rateLimit: 9, known });
      const before = Date.now();
      const rotated = (await rotateKey(db, { id: old.id, overlapMs: 3_600_000 }))!;
      expect(rotated.key).to.not.equal(old.key);
      const keys = await listKeys(db);
      const fresh = keys.find((k) => k.id === rotated.id)!;
      expect(fresh).to.deep.include({ name: 'forwarder', brands: ['acme', 'globex'], areas: ['logistics'], families: [], rateLimit: 9, expiresAt: null, revokedAt: null });
      const ending = keys.find((k) => k.id === old.id)!;
      expect(Date.parse(ending.expiresAt!)).to.be.within(before + 3_600_000 - 60_000, Date.now() + 3_600_000 + 60_000);
      expect(Date.parse(rotated.oldExpiresAt)).to.equal(Date.parse(ending.expiresAt!));
      // Both work during the overlap.
      expect(await findGrant(db, { key: old.key, brandSlug: 'globex' })).to.not.equal(null);
      expect(await findGrant(db, { key: rotated.key, brandSlug: 'globex' })).to.deep.include({ allowed: true, rateLimit: 9 });
      // An overlap of 0 ends the key at once, as a revocation; a key already ended cannot be rotated.
      const again = (await rotateKey(db, { id: rotated.id, overlapMs: 0 }))!;
      expect(await findGrant(db, { key: rotated.key, brandSlug: 'acme' })).to.equal(null);
      expect((await listKeys(db)).find((k) => k.id === rotated.id)!.revokedAt).to.match(/^\d{4}-/);
      expect(await rotateKey(db, { id: rotated.id, overlapMs: 0 })).to.equal(null);
      expect(await findGrant(db, { key: again.key, brandSlug: 'acme' })).to.not.equal(null);
    });

    it('never lets a rotation make a key live longer than it was to live', async () => {
      const { db } = await testDatabase();
      const expiresAt = new Date(Date.now() + 3_600_000);
      const old = await createKey(db, { brands: ['acme'], global: false, expiresAt });
      const rotated = (await rotateKey(db, { id: old.id, overlapMs: 86_400_000 }))!;
      const keys = await listKeys(db);
      expect(Date.parse(keys.find((k) => k.id === old.id)!.expiresAt!)).to.equal(expiresAt.getTime());
      expect(Date.parse(keys.find((k) => k.id === rotated.id)!.expiresAt!)).to.equal(expiresAt.getTime());
    });
  });
});
