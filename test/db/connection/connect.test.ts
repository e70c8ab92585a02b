import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { connect, type DatabaseSettings } from '../../../src/db/connection/connect.ts';
import { embeddedCursorSecret } from '../../../src/db/connection/embedded-data-dir.ts';
import { pendingMigrations } from '../../../src/db/schema/migrate-to-latest.ts';
import { freePort } from '../../support/free-port.ts';
import { testDatabase } from '../../support/test-database.ts';
import { describeDatabaseFree } from '../../support/database-free.ts';

/** knex's warnings about connections that fail on purpose. */
const quiet = { warn: () => undefined, error: () => undefined };

const settings = (more: Partial<DatabaseSettings>): DatabaseSettings => ({
  databaseUrl: null,
  databaseReplicaUrls: [],
  databasePoolMax: 2,
  databaseStatementCache: 0,
  databasePooler: null,
  cursorSecrets: null,
  dataDir: '/nonexistent',
  ...more,
});

describe('connect', () => {
  describeDatabaseFree?.('to the embedded database', () => {
    let dataDir: string;
    beforeEach(async () => {
      dataDir = join(await mkdtemp(join(tmpdir(), 'bcat-connect-')), 'data');
    });
    afterEach(() => rm(join(dataDir, '..'), { recursive: true, force: true }));

    it('opens it migrated in the data folder, locked while open, with the folder\'s cursor secret', async function () {
      // A new folder runs every migration on PGlite: over a minute on a busy two-core machine (CI, 2026-11-26).
      this.timeout(150_000);
      const connection = await connect(settings({ dataDir }));
      try {
        expect(connection.database.kind).to.equal('embedded');
        expect(connection.replicas).to.deep.equal([]);
        expect(await pendingMigrations(connection.database.db)).to.deep.equal([]);
        expect(await readFile(join(dataDir, 'lock'), 'utf8')).to.equal(String(process.pid));
        expect(connection.cursorSecrets).to.deep.equal([await embeddedCursorSecret(dataDir)]);
      } finally {
        await connection.close();
      }
      await readFile(join(dataDir, 'lock')).then(() => expect.fail('the lock outlived the connection'), (error: NodeJS.ErrnoException) => expect(error.code).to.equal('ENOENT'));
    });

    it('takes the configured cursor secret over the folder\'s', async function () {
      this.timeout(60_000);
      const connection = await connect(settings({ dataDir, cursorSecrets: ['configured-secret-0123456789abcdef0123'] }));
      await connection.close();
      expect(connection.cursorSecrets).to.deep.equal(['configured-secret-0123456789abcdef0123']);
    });

    it('refuses a folder another running process holds, and leaves its lock alone', async () => {
      // Refused before anything is opened: the folder needs no database in it.
      await mkdir(dataDir, { recursive: true });
      await writeFile(join(dataDir, 'lock'), String(process.ppid));
      const failure = await connect(settings({ dataDir })).then(() => null, (error: Error) => error);
      expect(failure?.message).to.match(new RegExp(`is in use by process ${process.ppid}`));
      expect(await readFile(join(dataDir, 'lock'), 'utf8')).to.equal(String(process.ppid));
    });
  });

  describe('to Postgres', () => {
    it('opens a server\'s Postgres without waiting for it: the schema is read afterwards, while the server listens', async () => {
      const databaseUrl = `postgres://postgres@127.0.0.1:${await freePort()}/none`;
      const connection = await connect(settings({ databaseUrl, cursorSecrets: ['configured-secret-0123456789abcdef0123'] }), { serving: true, log: quiet });
      try {
        expect(connection.database.kind).to.equal('postgres');
        const failure = await connection.database.db.raw('select 1').then(() => null, (error: Error) => error);
        expect(failure?.message, 'nothing answers there').to.match(/ECONNREFUSED/);
      } finally {
        await connection.close();
      }
    });

    it('lets a command open it without reading the schema, and needs no cursor secret', async () => {
      const databaseUrl = `postgres://postgres@127.0.0.1:${await freePort()}/none`;
      const connection = await connect(settings({ databaseUrl }), { log: quiet });
      expect(connection.database.kind).to.equal('postgres');
      expect(connection.cursorSecrets).to.deep.equal([]);
      await connection.close();
    });

    // On Postgres only: a database to serve.
    if (process.env.DATABASE_URL) {
      it('serves a migrated database, with a pool per replica that close() closes too', async () => {
        const url = (await testDatabase()).url!;
        const connection = await connect(settings({ databaseUrl: url, databaseReplicaUrls: [url], cursorSecrets: ['configured-secret-0123456789abcdef0123'] }), { serving: true });
        try {
          expect(connection.replicas).to.have.length(1);
          const answer = (await connection.replicas[0]!.db.raw('select 1 as one')) as { rows: unknown[] };
          expect(answer.rows).to.deep.equal([{ one: 1 }]);
          expect(connection.cursorSecrets).to.deep.equal(['configured-secret-0123456789abcdef0123']);
        } finally {
          await connection.close();
        }
        const closed = await connection.replicas[0]!.db.raw('select 1').then(() => null, (error: Error) => error);
        expect(closed, 'the replica pool is closed').to.be.instanceOf(Error);
      });
    }
  });
});
