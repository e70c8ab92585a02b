import { expect } from 'chai';
import { generateKey } from '../../../src/server/auth/api-keys.ts';
import { revokeKey } from '../../../src/server/auth/key-admin.ts';
import { keyRefused, refusalOfKey } from '../../../src/server/auth/key-refusal.ts';
import { ApiError } from '../../../src/engine/request/api-error.ts';
import { KEY_REFUSALS, type KeyRefusal } from '../../../src/engine/request/key-refusals.ts';
import { createTestKey, resetToBrands } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

describe('keyRefused', () => {
  it('is a 401 unauthorized with the reason in details and the reason\'s message, for every reason', () => {
    for (const reason of Object.keys(KEY_REFUSALS) as KeyRefusal[]) {
      const error = keyRefused(reason);
      expect(error).to.be.instanceOf(ApiError);
      expect(error, reason).to.deep.include({ status: 401, errorCode: 'unauthorized', details: { reason }, message: KEY_REFUSALS[reason] });
    }
  });

  it('challenges a request without a live key (RFC 6750 §3: invalid_token once a key was sent), and not a live key refused for the brand or family', () => {
    expect(keyRefused('missing').headers).to.deep.equal({ 'WWW-Authenticate': 'Bearer' });
    for (const reason of ['malformed', 'unknown_or_revoked', 'expired'] as const) {
      expect(keyRefused(reason).headers, reason).to.deep.equal({ 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    }
    for (const reason of ['brand_not_allowed', 'family_not_allowed'] as const) expect(keyRefused(reason).headers, reason).to.deep.equal({});
  });
});

describe('refusalOfKey', () => {
  beforeEach(() => resetToBrands('acme'));

  it('says expired for a key past its expiry that was never revoked', async () => {
    const { db } = await testDatabase();
    const expired = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() - 60_000) });
    expect(await refusalOfKey(db, expired.key)).to.equal('expired');
  });

  it('says unknown_or_revoked for a key never made, a revoked one (expired or not), and one not yet expired', async () => {
    const { db } = await testDatabase();
    const revokedAfterExpiry = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() - 60_000) });
    expect(await revokeKey(db, revokedAfterExpiry.id)).to.equal(true);
    const revoked = await createTestKey({ brands: ['acme'] });
    expect(await revokeKey(db, revoked.id)).to.equal(true);
    const live = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() + 3_600_000) });
    for (const [what, key] of [['never made', generateKey()], ['revoked after its expiry', revokedAfterExpiry.key], ['revoked', revoked.key], ['live', live.key]]) {
      expect(await refusalOfKey(db, key!), what).to.equal('unknown_or_revoked');
    }
  });
});
