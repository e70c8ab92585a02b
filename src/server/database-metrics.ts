import type { Knex } from 'knex';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ReadReplicas } from '../db/connection/read-replicas.ts';

/** The parts of a knex pool (tarn) the gauge reads; the embedded database has none. */
interface Pool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/**
 * Registers the database's metrics: the pool's connections by state, read at
 * each scrape, requests by the database that served their reads, and whether
 * each database is in the turn for reads now.
 */
export function registerDatabaseMetrics({ registry, db, reads }: { registry: Registry; db: Knex; reads: ReadReplicas }): void {
  const pool = (db.client as { pool?: Pool }).pool;
  new Gauge({
    name: 'bcat_db_pool_connections',
    help: 'Database pool connections, by state (embedded database: none).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      if (!pool) return;
      this.set({ state: 'used' }, pool.numUsed());
      this.set({ state: 'free' }, pool.numFree());
      this.set({ state: 'pending' }, pool.numPendingAcquires());
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
