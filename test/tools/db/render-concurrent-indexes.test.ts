import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { concurrentIndex, renderConcurrentIndexes } from '../../../tools/db/render-concurrent-indexes.ts';
import { secondConnection } from '../../support/second-connection.ts';
import { testDatabase } from '../../support/test-database.ts';

/** A rendered migration, written to a file and imported as knex would import it. */
async function loadMigration(statements: readonly string[]): Promise<{ up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void>; config: unknown; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'bcat-cic-'));
  const file = join(dir, '20990101000000_probe_indexes.ts');
  await writeFile(file, renderConcurrentIndexes({ statements, generatedBy: 'a test' }));
  return { ...(await import(pathToFileURL(file).href)), dir };
}

const validity = async (db: Knex, name: string): Promise<boolean | null> =>
  ((await db.raw('select indisvalid as "valid" from pg_index where indexrelid = to_regclass(?)', [`"${name}"`])) as { rows: { valid: boolean }[] }).rows[0]?.valid ?? null;

describe('render-concurrent-indexes: new indexes on tables that hold rows, built without blocking the writer', function () {
  this.timeout(120_000);

  it('turns each planned index into a concurrent build, in a migration that runs outside a transaction', async () => {
    expect(concurrentIndex('create index "t_brand_id_code_created_at_id_idx" on "t" using btree ("brand_id", "code", "created_at", "id")'))
      .to.deep.equal(['t_brand_id_code_created_at_id_idx', 'create index concurrently "t_brand_id_code_created_at_id_idx" on "t" using btree ("brand_id", "code", "created_at", "id")']);
    expect(concurrentIndex('create unique index "u_key" on "u" using btree ("brand_id", "slug")')[1]).to.equal('create unique index concurrently "u_key" on "u" using btree ("brand_id", "slug")');
    expect(() => concurrentIndex('drop index "x"')).to.throw(/not an index statement/);
    const migration = await loadMigration(['create index "t_idx" on "t" using btree ("brand_id")']);
    try {
      expect(migration.config).to.deep.equal({ transaction: false });
    } finally {
      await rm(migration.dir, { recursive: true, force: true });
    }
  });

  it('builds, skips what is built, and drops again: on the run\'s database', async () => {
    const { db } = await testDatabase();
    await db.raw('create table if not exists cic_plain (id serial primary key, n integer)');
    const migration = await loadMigration(['create index "cic_plain_n_idx" on "cic_plain" using btree ("n")']);
    try {
      await migration.up(db);
      expect(await validity(db, 'cic_plain_n_idx')).to.equal(true);
      await migration.up(db);
      expect(await validity(db, 'cic_plain_n_idx')).to.equal(true);
      await migration.down(db);
      expect(await validity(db, 'cic_plain_n_idx')).to.equal(null);
    } finally {
      await db.raw('drop table if exists cic_plain');
      await rm(migration.dir, { recursive: true, force: true });
    }
  });

  const onPostgres = process.env.DATABASE_URL ? describe : null;
  onPostgres?.('on Postgres, beside a writer', () => {
    it('lets a writer keep committing while the index is built', async () => {
      const { db } = await testDatabase();
      await db.raw('drop table if exists cic_probe');
      await db.raw('create table cic_probe (id bigserial primary key, brand integer not null, amount numeric, created_at timestamptz not null default now())');
      await db.raw(`insert into cic_probe (brand, amount) select g % 50, (g % 997)::numeric / 7 from generate_series(1, 300000) g`);
      const migration = await loadMigration(['create index "cic_probe_amount_idx" on "cic_probe" using btree ("brand", "amount", "created_at", "id")']);
      const writer = await secondConnection();
      const commits: number[] = [];
      let writing = true;
      const writes = (async () => {
        while (writing) {
          await writer.query('insert into cic_probe (brand, amount) values (1, 2.5)');
          await writer.query('update cic_probe set amount = amount + 1 where id = (select max(id) from cic_probe)');
          commits.push(Date.now());
        }
      })();
      try {
        // Let the writer run, then build while it goes on.
        while (commits.length < 20) await new Promise((resolve) => setImmediate(resolve));
        const started = Date.now();
        await migration.up(db);
        const ended = Date.now();
        writing = false;
        await writes;
        const during = commits.filter((at) => at >= started && at <= ended);
        expect(await validity(db, 'cic_probe_amount_idx')).to.equal(true);
        // A plain `create index` holds a lock that blocks every write for the whole build: here writes went on throughout.
        expect(during.length, `commits during a ${ended - started} ms build`).to.be.above(10);
        const gaps = during.slice(1).map((at, i) => at - during[i]!);
        expect(Math.max(...gaps), 'the longest pause of the writer during the build, ms').to.be.below(Math.max(1000, (ended - started) / 2));
      } finally {
        writing = false;
        await writes.catch(() => undefined);
        await writer.end();
        await db.raw('drop table if exists cic_probe');
        await rm(migration.dir, { recursive: true, force: true });
      }
    });

    it('resumes a build that stopped halfway: the invalid index it left is dropped and built again', async () => {
      const { db } = await testDatabase();
      await db.raw('drop table if exists cic_resume');
      await db.raw('create table cic_resume (id serial primary key, code text)');
      await db.raw(`insert into cic_resume (code) values ('a'), ('b'), ('b')`);
      const statement = 'create unique index "cic_resume_code_key" on "cic_resume" using btree ("code")';
      const migration = await loadMigration([statement]);
      try {
        // The duplicate stops the build halfway, as a killed process or a cancelled statement would: an invalid index is left.
        const failed = await migration.up(db).then(() => null, (error: Error) => error.message);
        expect(failed).to.match(/could not create unique index/);
        expect(await validity(db, 'cic_resume_code_key')).to.equal(false);
        await db.raw(`delete from cic_resume where code = 'b' and id = (select max(id) from cic_resume)`);
        await migration.up(db);
        expect(await validity(db, 'cic_resume_code_key')).to.equal(true);
      } finally {
        await db.raw('drop table if exists cic_resume');
        await rm(migration.dir, { recursive: true, force: true });
      }
    });
  });
});
