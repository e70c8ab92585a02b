import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { findGrant, generateKey, hasValidChecksum, hashKey, isWellFormedKey, KEY_PREFIX } from '../../../src/server/auth/api-keys.ts';
import { revokeKey } from '../../../src/server/auth/key-admin.ts';
import { createTestKey, resetToBrands } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { useServer } from '../../support/use-server.ts';
import { sleep } from '../../support/wait-for.ts';

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
      await resetToBrands('acme', 'globex');
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

  });

  describe('over HTTP', () => {
    const server = useServer();
    beforeEach(async () => {
      await resetToBrands('acme');
    });

    it('stops working at once when revoked, with no restart', async () => {
      const { db } = await testDatabase();
      const { id, key } = await createTestKey({ brands: ['acme'] });
      expect((await server.request('/brands/acme', { key })).status).to.equal(200);
      await revokeKey(db, id);
      expect((await server.request('/brands/acme', { key })).status).to.equal(401);
    });

    it('stops working once its expiry passes', async () => {
      const expiresAt = Date.now() + 1500;
      const { key } = await createTestKey({ brands: ['acme'], expiresAt: new Date(expiresAt) });
      expect((await server.request('/brands/acme', { key })).status).to.equal(200);
      await sleep(Math.max(0, expiresAt + 200 - Date.now())); // until the expiry has passed, with a margin
      expect((await server.request('/brands/acme', { key })).status).to.equal(401);
    });
  });
});
