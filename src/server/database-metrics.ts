import type { Knex } from 'knex';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ReadReplicas } from '../db/connection/read-replicas.ts';
import { poolUsage } from '../db/connection/postgres-pool.ts';

/**
 * Registers the database's metrics: the pool's connections by state, read at
 * each scrape, requests by the database that served their reads, and whether
 * each database is in the turn for reads now.
 */
export function registerDatabaseMetrics({ registry, db, reads }: { registry: Registry; db: Knex; reads: ReadReplicas }): void {
  new Gauge({
    name: 'bcat_db_pool_connections',
    help: 'Database pool connections, by state (the embedded database: its one connection).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const usage = poolUsage(db);
      if (!usage) return;
      this.set({ state: 'used' }, usage.used);
      this.set({ state: 'free' }, usage.free);
      this.set({ state: 'pending' }, usage.pending);
    },
  });
  const served = new Counter({
    name: 'bcat_db_reads_total',
    help: 'Requests whose list or get queries ran on each database: primary, replica-1, replica-2, ...',
    labelNames: ['target'] as const,
    registers: [registry],
  });
  reads.onRead((target) => served.inc({ target }));
  new Gauge({
    name: 'bcat_db_read_target_available',
    help: 'Whether each database takes reads now (1) or is out of the turn after a failure until it answers again (0).',
    labelNames: ['target'] as const,
    registers: [registry],
    collect() {
      for (const { name, available } of reads.state()) this.set({ target: name }, available ? 1 : 0);
    },
  });
}
