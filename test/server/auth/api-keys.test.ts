import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { findGrant, generateKey, hasValidChecksum, hashKey, isWellFormedKey, KEY_PREFIX } from '../../../src/server/auth/api-keys.ts';
import { createKey, KeyError, listKeys, revokeKey } from '../../../src/server/auth/key-admin.ts';
import { createBrand, createTestKey } from '../../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../../support/test-database.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

const KEY_SHAPE = /^bcat_sk_[0-9A-Za-z]{46}$/;

describe('API keys', () => {
  describe('generateKey', () => {
    it('makes keys of the shape bcat_sk_ + 46 base62 characters (40 random, 6 checksum), all different', () => {
      expect(KEY_PREFIX).to.equal('bcat_');
      const keys = Array.from({ length: 2000 }, () => generateKey());
      for (const key of keys) {
        expect(key).to.match(KEY_SHAPE);
        expect(isWellFormedKey(key)).to.equal(true);
      }
      expect(new Set(keys).size).to.equal(keys.length);
      // About 238 random bits: the secrets use the whole alphabet, not a narrow part of it.
      const alphabet = new Set(keys.join('').replaceAll('bcat_sk_', ''));
      expect(alphabet.size).to.equal(62);
    });

    it('refuses strings of another shape without a lookup', () => {
      const key = generateKey();
      for (const bad of ['', 'bcat_sk_', `${key}a`, key.slice(0, -1), key.replace('bcat_sk_', 'bcat_pk_'), ` ${key}`, `${key.slice(0, -1)}_`]) {
        expect(isWellFormedKey(bad), bad).to.equal(false);
      }
    });

    it('carries a checksum that catches every single-character typo', () => {
      const key = generateKey();
      expect(hasValidChecksum(key)).to.equal(true);
      const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
      for (let i = 'bcat_sk_'.length; i < key.length; i += 1) {
        for (const c of alphabet) {
          if (c === key[i]) continue;
          const typo = `${key.slice(0, i)}${c}${key.slice(i + 1)}`;
          expect(isWellFormedKey(typo), typo).to.equal(false);
        }
      }
    });

    it('pins the checksum a scanner reimplements: CRC-32 of prefix and random part, in 6 base62 characters', () => {
      // Expected value computed with Python's zlib.crc32, independently of the code under test.
      expect(hasValidChecksum(`bcat_sk_${'0'.repeat(40)}2RJFGS`)).to.equal(true);
      expect(hasValidChecksum(`bcat_sk_${'0'.repeat(40)}2RJFGT`)).to.equal(false);
    });

    it('still accepts the shape of keys made before checksums (43 base62 characters) for lookup', () => {
      const legacy = `bcat_sk_${randomBytes(43).toString('base64').replace(/[^0-9A-Za-z]/g, 'x').slice(0, 43)}`;
      expect(legacy).to.match(/^bcat_sk_[0-9A-Za-z]{43}$/);
      expect(isWellFormedKey(legacy)).to.equal(true);
      expect(hasValidChecksum(legacy)).to.equal(false);
    });

    it('hashes with SHA-256 in hex', () => {
      expect(hashKey('abc')).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    });
  });

  describe('in the database', () => {
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

    it('scopes keys: brand keys to their brands, global keys to every brand', async () => {
      const { db } = await testDatabase();
      const one = await createTestKey({ brands: ['acme'] });
      const global = await createTestKey({ global: true });
      expect(await findGrant(db, { key: one.key, brandSlug: 'acme' })).to.deep.include({ keyId: one.id, allowed: true });
      expect(await findGrant(db, { key: one.key, brandSlug: 'globex' })).to.deep.include({ keyId: one.id, allowed: false });
      expect((await findGrant(db, { key: one.key, brandSlug: 'nope' }))!.brand).to.equal(null);
      expect(await findGrant(db, { key: global.key, brandSlug: 'globex' })).to.deep.include({ keyId: global.id, allowed: true });
      expect(await findGrant(db, { key: generateKey(), brandSlug: 'acme' })).to.equal(null);
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
  });

  describe('over HTTP', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.close());
    beforeEach(async () => {
      await resetDatabase((await testDatabase()).db);
      await createBrand('acme');
    });

    it('stops working at once when revoked, with no restart', async () => {
      const { db } = await testDatabase();
      const { id, key } = await createTestKey({ brands: ['acme'] });
      expect((await server.request('/brands/acme', { key })).status).to.equal(200);
      await revokeKey(db, id);
      expect((await server.request('/brands/acme', { key })).status).to.equal(401);
    });

    it('stops working once its expiry passes', async () => {
      const { key } = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() + 1500) });
      expect((await server.request('/brands/acme', { key })).status).to.equal(200);
      await new Promise((resolve) => setTimeout(resolve, 1700));
      expect((await server.request('/brands/acme', { key })).status).to.equal(401);
    });
  });
});
