import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { connect, type DatabaseSettings } from '../../../src/db/connection/connect.ts';
import { embeddedCursorSecret } from '../../../src/db/connection/embedded-data-dir.ts';
import { pendingMigrations } from '../../../src/db/schema/migrate-to-latest.ts';
import { freePort } from '../../support/free-port.ts';
import { testDatabase } from '../../support/test-database.ts';

/** knex's warnings about connections that fail on purpose. */
const quiet = { warn: () => undefined, error: () => undefined };

const settings = (more: Partial<DatabaseSettings>): DatabaseSettings => ({
  databaseUrl: null,
  databaseReplicaUrls: [],
  databasePoolMax: 2,
  databaseStatementCache: 0,
  cursorSecret: null,
  dataDir: '/nonexistent',
  ...more,
});

describe('connect', () => {
  describe('to the embedded database', () => {
    let dataDir: string;
    beforeEach(async () => {
      dataDir = join(await mkdtemp(join(tmpdir(), 'bcat-connect-')), 'data');
    });
    afterEach(() => rm(join(dataDir, '..'), { recursive: true, force: true }));

    it('opens it migrated in the data folder, locked while open, with the folder\'s cursor secret', async function () {
      this.timeout(60_000);
      const connection = await connect(settings({ dataDir }));
      try {
        expect(connection.database.kind).to.equal('embedded');
        expect(connection.replicas).to.deep.equal([]);
        expect(await pendingMigrations(connection.database.db)).to.deep.equal([]);
        expect(await readFile(join(dataDir, 'lock'), 'utf8')).to.equal(String(process.pid));
        expect(connection.cursorSecret).to.equal(await embeddedCursorSecret(dataDir));
      } finally {
        await connection.close();
      }
      await readFile(join(dataDir, 'lock')).then(() => expect.fail('the lock outlived the connection'), (error: NodeJS.ErrnoException) => expect(error.code).to.equal('ENOENT'));
    });

    it('takes the configured cursor secret over the folder\'s', async function () {
      this.timeout(60_000);
      const connection = await connect(settings({ dataDir, cursorSecret: 'configured-secret-0123456789abcdef0123' }));
      await connection.close();
      expect(connection.cursorSecret).to.equal('configured-secret-0123456789abcdef0123');
    });

    it('refuses a folder another running process holds, and leaves its lock alone', async () => {
      await connect(settings({ dataDir })).then((connection) => connection.close());
      await writeFile(join(dataDir, 'lock'), String(process.ppid));
      const failure = await connect(settings({ dataDir })).then(() => null, (error: Error) => error);
      expect(failure?.message).to.match(new RegExp(`is in use by process ${process.ppid}`));
      expect(await readFile(join(dataDir, 'lock'), 'utf8')).to.equal(String(process.ppid));
    });
  });

  describe('to Postgres', () => {
    it('stops a server whose database cannot be read, saying why', async () => {
      const databaseUrl = `postgres://postgres@127.0.0.1:${await freePort()}/none`;
      const failure = await connect(settings({ databaseUrl }), { serving: true, log: quiet }).then(() => null, (error: Error) => error);
      expect(failure?.message).to.match(/^cannot read the schema at DATABASE_URL: .*ECONNREFUSED/);
    });

    it('lets a command open it without reading the schema, and needs no cursor secret', async () => {
      const databaseUrl = `postgres://postgres@127.0.0.1:${await freePort()}/none`;
      const connection = await connect(settings({ databaseUrl }), { log: quiet });
      expect(connection.database.kind).to.equal('postgres');
      expect(connection.cursorSecret).to.equal('');
      await connection.close();
    });

    // On Postgres only: a database to serve.
    if (process.env.DATABASE_URL) {
      it('serves a migrated database, with a pool per replica that close() closes too', async () => {
        const url = (await testDatabase()).url!;
        const connection = await connect(settings({ databaseUrl: url, databaseReplicaUrls: [url], cursorSecret: 'configured-secret-0123456789abcdef0123' }), { serving: true });
        try {
          expect(connection.replicas).to.have.length(1);
          const answer = (await connection.replicas[0]!.db.raw('select 1 as one')) as { rows: unknown[] };
          expect(answer.rows).to.deep.equal([{ one: 1 }]);
          expect(connection.cursorSecret).to.equal('configured-secret-0123456789abcdef0123');
        } finally {
          await connection.close();
        }
        const closed = await connection.replicas[0]!.db.raw('select 1').then(() => null, (error: Error) => error);
        expect(closed, 'the replica pool is closed').to.be.instanceOf(Error);
      });

      it('refuses to serve a schema with migrations pending', async () => {
        const { db, url } = await testDatabase();
        await db.raw('create schema if not exists connect_unmigrated');
        try {
          const unmigrated = new URL(url!);
          unmigrated.searchParams.set('options', '-c search_path=connect_unmigrated');
          const failure = await connect(settings({ databaseUrl: unmigrated.toString() }), { serving: true }).then(() => null, (error: Error) => error);
          expect(failure?.message).to.match(/^the database schema is out of date \(\d+ pending migrations\): run `npm run db:migrate`$/);
        } finally {
          await db.raw('drop schema connect_unmigrated cascade');
        }
      });
    }
  });
});
