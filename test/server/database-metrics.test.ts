import { expect } from 'chai';
import { Registry } from 'prom-client';
import { createReadReplicas } from '../../src/db/connection/read-replicas.ts';
import { registerDatabaseMetrics } from '../../src/server/database-metrics.ts';
import { collectingLogger } from '../support/collecting-logger.ts';
import { testDatabase } from '../support/test-database.ts';

/** The samples of one metric in the registry's text: `labels value` lines. */
async function samples(registry: Registry, name: string): Promise<string[]> {
  return (await registry.metrics()).split('\n').filter((line) => line.startsWith(`${name}{`)).map((line) => line.slice(name.length));
}

describe('registerDatabaseMetrics', () => {
  it('reads the pool at each scrape, counts reads by the database that served them, and says which databases take reads', async () => {
    const { db } = await testDatabase();
    const registry = new Registry();
    // The test database stands in for a replica too: only the names matter here.
    const reads = createReadReplicas({ primary: { name: 'primary', db }, replicas: [{ name: 'replica-1', db }], log: collectingLogger().logger });
    try {
      registerDatabaseMetrics({ registry, db, reads });
      expect(await samples(registry, 'bcat_db_reads_total'), 'a target appears once counted').to.deep.equal([]);
      await reads.run((target) => target.raw('select 1'));
      await reads.run((target) => target.raw('select 1'));
      expect(await samples(registry, 'bcat_db_reads_total')).to.deep.equal(['{target="replica-1"} 2']);
      expect(await samples(registry, 'bcat_db_read_target_available')).to.deep.equal(['{target="primary"} 1', '{target="replica-1"} 1']);
      const pool = await samples(registry, 'bcat_db_pool_connections');
      expect(pool.map((line) => line.split(' ')[0])).to.deep.equal(['{state="used"}', '{state="free"}', '{state="pending"}']);
      expect(pool.every((line) => /^\S+ \d+$/.test(line))).to.equal(true);
      // A connection lent out (as a read holds one) counts as used until it comes back.
      const client = db.client as { acquireConnection(): Promise<unknown>; releaseConnection(connection: unknown): Promise<void> };
      const held = await client.acquireConnection();
      try {
        expect(await samples(registry, 'bcat_db_pool_connections')).to.include('{state="used"} 1');
      } finally {
        await client.releaseConnection(held);
      }
      expect(await samples(registry, 'bcat_db_pool_connections')).to.include('{state="used"} 0');
    } finally {
      reads.close();
    }
  });
});
