import { expect } from 'chai';
import { createReadReplicas } from '../../src/db/connection/read-replicas.ts';
import { createDatabaseReads } from '../../src/db/database-reads.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';

const COUNT = { sql: 'select count(*)::int as "total", pg_current_snapshot()::text as "snapshot" from brands', bindings: [] };
const quiet = { warn() {}, info() {} };

describe('createDatabaseReads: the engine port on the database', () => {
  it('runs plans, and remembers a count while the data has not changed', async () => {
    const { db } = await testDatabase();
    await resetDatabase(db);
    const reads = createDatabaseReads(createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: quiet }));
    const sent: string[] = [];
    const listen = (query: { sql: string }): void => {
      sent.push(query.sql);
    };
    db.on('query', listen);
    try {
      expect(await reads.run((session) => session.count('brands', COUNT))).to.equal(0);
      expect(await reads.run((session) => session.count('brands', COUNT))).to.equal(0);
      expect(sent.filter((sql) => sql === COUNT.sql), 'counted once, then reused').to.have.length(1);
      await db('brands').insert({ slug: 'counted', name: 'Counted' });
      expect(await reads.run((session) => session.count('brands', COUNT)), 'a commit makes it count again').to.equal(1);
      expect(sent.filter((sql) => sql === COUNT.sql)).to.have.length(2);
      const rows = await reads.run((session) => session.rows({ sql: 'select slug from brands', bindings: [] }));
      expect(rows).to.deep.equal([{ slug: 'counted' }]);
      expect(await reads.run((session) => session.mark()), 'one copy: nothing to keep in step').to.equal(null);
    } finally {
      db.off('query', listen);
    }
  });
});
