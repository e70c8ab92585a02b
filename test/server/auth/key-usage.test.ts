import { expect } from 'chai';
import type { Knex } from 'knex';
import { listKeys } from '../../../src/server/auth/key-admin.ts';
import { createKeyUsage } from '../../../src/server/auth/key-usage.ts';
import { createTestKey, resetToBrands } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

/** When each key was last used (CONTRACT.md §5, `keys list`): noted in memory, written at most once a minute per key. */
describe('createKeyUsage', () => {
  beforeEach(() => resetToBrands('acme'));

  const lastUse = async (db: Knex, id: string): Promise<string | null> => (await listKeys(db)).find((k) => k.id === id)!.lastUsedAt;

  it('records the last use of each key to the minute, in one statement a round, at most once a minute per key, never back in time', async () => {
    const { db } = await testDatabase();
    const a = await createTestKey({ brands: ['acme'] });
    const b = await createTestKey({ brands: ['acme'] });
    let clock = Date.parse('2026-11-28T10:15:42.500Z');
    const usage = createKeyUsage({ db, intervalMs: 3_600_000, now: () => clock });
    const statements: string[] = [];
    const listen = (query: { sql: string }): void => {
      if (query.sql.startsWith('update api_keys')) statements.push(query.sql);
    };
    db.on('query', listen);
    try {
      for (let i = 0; i < 50; i++) usage.seen(a.id);
      usage.seen(b.id);
      await usage.flush();
      expect(statements).to.have.length(1);
      expect(await lastUse(db, a.id)).to.equal('2026-11-28T10:15:00.000Z');
      expect(await lastUse(db, b.id)).to.equal('2026-11-28T10:15:00.000Z');
      // The same minute again writes nothing; the next minute does, for that key only.
      usage.seen(a.id);
      await usage.flush();
      expect(statements).to.have.length(1);
      clock += 60_000;
      usage.seen(a.id);
      await usage.flush();
      expect(statements).to.have.length(2);
      expect(await lastUse(db, a.id)).to.equal('2026-11-28T10:16:00.000Z');
      // Another instance with a slower clock does not move it back.
      const behind = createKeyUsage({ db, intervalMs: 3_600_000, now: () => Date.parse('2026-11-28T10:01:00Z') });
      behind.seen(a.id);
      await behind.close();
      expect(await lastUse(db, a.id)).to.equal('2026-11-28T10:16:00.000Z');
    } finally {
      db.off('query', listen);
      await usage.close();
    }
  });

  it('tells of a failed write and writes the same minute at the next round', async () => {
    const { db } = await testDatabase();
    const { id } = await createTestKey({ brands: ['acme'] });
    let down = true;
    const flaky = { raw: (sql: string, bindings: unknown[]) => (down ? Promise.reject(new Error('the database is down')) : db.raw(sql, bindings as never)) } as unknown as Knex;
    const errors: string[] = [];
    const usage = createKeyUsage({ db: flaky, intervalMs: 3_600_000, now: () => Date.parse('2026-11-28T10:15:42Z'), onError: (error) => errors.push(error.message) });
    try {
      usage.seen(id);
      await usage.flush();
      expect(errors).to.deep.equal(['the database is down']);
      expect(await lastUse(db, id)).to.equal(null);
      down = false;
      await usage.flush();
      expect(await lastUse(db, id)).to.equal('2026-11-28T10:15:00.000Z');
      expect(errors).to.have.length(1);
    } finally {
      await usage.close();
    }
  });

  it('writes what is left when it stops, and nothing for a key that is not there', async () => {
    const { db } = await testDatabase();
    const { id } = await createTestKey({ brands: ['acme'] });
    const usage = createKeyUsage({ db, intervalMs: 3_600_000, now: () => Date.parse('2026-11-28T23:59:59.999Z') });
    usage.seen(id);
    usage.seen('00000000-0000-4000-8000-000000000000');
    await usage.close();
    expect(await lastUse(db, id)).to.equal('2026-11-28T23:59:00.000Z');
    expect((await listKeys(db)).map((key) => key.id)).to.deep.equal([id]);
  });
});
