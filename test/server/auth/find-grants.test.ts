import { expect } from 'chai';
import type { Knex } from 'knex';
import { findGrant, hashKey } from '../../../src/server/auth/api-keys.ts';
import { findGrants } from '../../../src/server/auth/find-grants.ts';
import { createBrand, createTestKey, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

describe('findGrants', () => {
  let db: Knex;

  beforeEach(async () => {
    ({ db } = await testDatabase());
  });

  it('answers every pair in one statement exactly as findGrant answers it alone, in the pairs\' order', async () => {
    const { key } = await resetToBrand('acme');
    await createBrand('globex');
    const global = await createTestKey({ global: true });
    const revoked = await createTestKey({ brands: ['acme'] });
    const expired = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() + 60_000) });
    const later = new Date(Date.now() + 86_400_000);
    const expiring = await createTestKey({ brands: ['globex'], expiresAt: later });
    await db('api_keys').where({ id: revoked.id }).update({ revoked_at: db.fn.now() });
    await db('api_keys').where({ id: expired.id }).update({ expires_at: db.raw("now() - interval '1 second'") });
    const unknown = `bcat_sk_${'A'.repeat(40)}000000`;
    const requests = [
      { key, brandSlug: 'acme' }, { key, brandSlug: 'globex' }, { key, brandSlug: 'nobody' }, { key, brandSlug: null },
      { key: global.key, brandSlug: 'globex' }, { key: revoked.key, brandSlug: 'acme' }, { key: expired.key, brandSlug: 'acme' },
      { key: unknown, brandSlug: 'acme' }, { key: expiring.key, brandSlug: 'globex' }, { key, brandSlug: 'acme' },
    ];
    const alone = await Promise.all(requests.map((request) => findGrant(db, request)));
    let statements = 0;
    const count = (): void => void (statements += 1);
    db.on('query', count);
    const together = await findGrants(db, requests.map(({ key: k, brandSlug }) => ({ keyHash: hashKey(k), brandSlug }))).finally(() => db.off('query', count));
    expect(statements).to.equal(1);
    expect(together).to.deep.equal(alone);
    // What the pairs are, so that the comparison above compares something.
    expect(together.map((grant) => grant && [grant.brand?.slug ?? null, grant.allowed])).to.deep.equal([
      ['acme', true], ['globex', false], [null, false], [null, false], ['globex', true], null, null, null, ['globex', true], ['acme', true],
    ]);
    expect(together[8]!.expiresAt).to.equal(later.toISOString().replace('Z', '000Z'));
  });

  it('sends nothing for no pairs', async () => {
    let statements = 0;
    const count = (): void => void (statements += 1);
    db.on('query', count);
    expect(await findGrants(db, [])).to.deep.equal([]);
    db.off('query', count);
    expect(statements).to.equal(0);
  });
});
