import { expect } from 'chai';
import type { Knex } from 'knex';
import { generateKey } from '../../../src/server/auth/api-keys.ts';
import { revokeKey } from '../../../src/server/auth/key-admin.ts';
import { createLiveKeyCheck } from '../../../src/server/auth/live-key-check.ts';
import { createTestKey, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

/** The live-key checks (queries reading "api_keys") that `body` sent. */
async function liveKeyQueries(db: Knex, body: () => Promise<void>): Promise<string[]> {
  const queries: string[] = [];
  const listen = (query: { sql: string }): void => {
    if (query.sql.includes('from "api_keys"')) queries.push(query.sql);
  };
  db.on('query', listen);
  try {
    await body();
  } finally {
    db.off('query', listen);
  }
  return queries;
}

describe('live key check', () => {
  let db: Knex;
  let key: string;

  beforeEach(async () => {
    ({ db } = await testDatabase());
    ({ key } = await resetToBrand());
  });

  it('says whether a key is live: unknown, revoked and expired keys are not', async () => {
    const check = createLiveKeyCheck({ db });
    const revoked = await createTestKey({ brands: ['acme'] });
    await revokeKey(db, revoked.id);
    const expired = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() - 1000) });
    const later = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() + 3_600_000) });
    expect(await check(key)).to.equal(true);
    expect(await check(later.key)).to.equal(true);
    expect(await check(generateKey())).to.equal(false);
    expect(await check(revoked.key)).to.equal(false);
    expect(await check(expired.key)).to.equal(false);
  });

  it('checks the keys that arrive together in one query, and the same key twice once', async () => {
    const check = createLiveKeyCheck({ db });
    const unknown = Array.from({ length: 200 }, () => generateKey());
    let answers: boolean[] = [];
    const queries = await liveKeyQueries(db, async () => {
      answers = await Promise.all([...unknown, key, key].map((candidate) => check(candidate)));
    });
    expect(answers.slice(0, 200).every((live) => !live)).to.equal(true);
    expect(answers.slice(200)).to.deep.equal([true, true]);
    expect(queries).to.have.length(1);
  });

  it('runs one query at a time: what arrives while one runs waits for the next, in batches of at most 500', async () => {
    const check = createLiveKeyCheck({ db });
    const queries = await liveKeyQueries(db, async () => {
      const first = check(generateKey());
      // Arrives in a later turn, while the first query is out: it waits, with the rest, for the next one.
      await new Promise((resolve) => setImmediate(resolve));
      const rest = Array.from({ length: 1200 }, () => check(generateKey()));
      expect(await Promise.all([first, ...rest])).to.not.include(true);
    });
    expect(queries).to.have.length(4);
  });

  it('fails the batch of a failed query, and answers the next batch again', async () => {
    const check = createLiveKeyCheck({ db });
    let fail = true;
    const failing = (builder: { sql: string }): void => {
      if (fail && builder.sql.includes('from "api_keys"')) throw new Error('database gone');
    };
    db.on('query', failing);
    try {
      const failures = await Promise.allSettled([check(key), check(generateKey())]);
      expect(failures.map((failure) => failure.status)).to.deep.equal(['rejected', 'rejected']);
    } finally {
      db.off('query', failing);
      fail = false;
    }
    expect(await check(key)).to.equal(true);
  });
});
