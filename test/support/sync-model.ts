import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type pg from 'pg';
import type { SyncCopy } from './sync-client.ts';

/**
 * The model of the changes feed's model-based tests (CONTRACT.md §6): writers
 * that run random inserts, updates, brand moves and deletes on `carton_sizes`
 * in transactions of random length, some rolled back, and the states each
 * write gave a record, so a test can check what a batch's end promises: the
 * copy holds, for every record, its state when the batch began or a state
 * committed since.
 *
 * A record's state for the brand is its `name` (every write gives a name of
 * its own) or null (not the brand's: deleted, moved away or never there).
 */
export interface Written {
  readonly id: string;
  readonly state: string | null;
  /** The writing transaction's id. */
  readonly xid: bigint;
}

/** The brand's records in one snapshot, and that snapshot (`xmin:xmax:xip,...`). */
export interface BrandStates {
  readonly states: Map<string, string>;
  readonly snapshot: string;
  /**
   * Read on a standby: there `pg_current_snapshot()` lists no running
   * transaction (a standby's snapshot keeps them where it does not look), so
   * only its xmin can be trusted.
   */
  readonly onStandby: boolean;
}

/** Whether a transaction's effects were surely in a snapshot (an aborted one never shows anyway). */
function visibleIn(before: BrandStates, xid: bigint): boolean {
  const [xmin, xmax, xip] = before.snapshot.split(':');
  if (xid < BigInt(xmin!)) return true;
  if (before.onStandby || xid >= BigInt(xmax!)) return false;
  return !(xip ?? '').split(',').filter(Boolean).some((running) => BigInt(running) === xid);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Errors of writers that wait on each other: the transaction is given up and another one begun. */
const CONTENTION = ['40P01', '40001', '55P03'];

export class SyncModel {
  readonly written: Written[] = [];
  private made = 0;

  constructor(private readonly brandId: string, private readonly otherBrandId: string, readonly ids: string[]) {}

  /** A fresh name: states never repeat, so a state tells which write it came from. */
  private name(prefix: string): string {
    this.made += 1;
    return `${prefix}${this.made}`;
  }

  /** One statement of a transaction; its resulting state, for the brand, of the row it touched (none when it touched no row). */
  private async step(client: pg.Client, random: () => number): Promise<Written | null> {
    const pick = (): string => this.ids[Math.floor(random() * this.ids.length)]!;
    const roll = random();
    const returning = 'returning id, case when brand_id = $1 then name end as state, pg_current_xact_id()::text as xid';
    let sql: string;
    let values: unknown[];
    if (roll < 0.3 || this.ids.length < 3) {
      const id = randomUUID();
      this.ids.push(id);
      [sql, values] = [`insert into carton_sizes (id, brand_id, name) values ($2, $1, $3) ${returning}`, [this.brandId, id, this.name('n')]];
    } else if (roll < 0.7) {
      [sql, values] = [`update carton_sizes set name = $3, updated_at = now() where id = $2 ${returning}`, [this.brandId, pick(), this.name('u')]];
    } else if (roll < 0.8) {
      sql = `update carton_sizes set brand_id = case when brand_id = $1 then $4::uuid else $1::uuid end, name = $3 where id = $2 ${returning}`;
      values = [this.brandId, pick(), this.name('m'), this.otherBrandId];
    } else {
      [sql, values] = ['delete from carton_sizes where id = $2 returning id, null::text as state, pg_current_xact_id()::text as xid, $1::uuid as brand', [this.brandId, pick()]];
    }
    const { rows } = await client.query(sql, values);
    return rows[0] ? { id: rows[0].id as string, state: rows[0].state as string | null, xid: BigInt(rows[0].xid as string) } : null;
  }

  /** One writer until `stop()`: transactions of one to four statements with pauses, a tenth rolled back. */
  async writer({ client, random, stop }: { client: pg.Client; random: () => number; stop: () => boolean }): Promise<void> {
    while (!stop()) {
      try {
        await client.query('begin');
        for (let n = 1 + Math.floor(random() * 4); n > 0; n--) {
          const written = await this.step(client, random);
          // Known before the commit is sent: a batch may see the commit before this writer hears of it.
          if (written) this.written.push(written);
          await sleep(Math.floor(random() * 8));
        }
        await client.query(random() < 0.1 ? 'rollback' : 'commit');
      } catch (error) {
        await client.query('rollback');
        if (!CONTENTION.includes((error as { code?: string }).code ?? '')) throw error;
      }
    }
  }

  /**
   * Checks a batch's end (CONTRACT.md §6): for every record, the copy holds
   * its state in `before` (read, with its snapshot, just before the batch's
   * first page, from the copy of the data the batch reads) or a state written
   * by a transaction that snapshot did not see.
   */
  expectBatchEnd({ copy, before, label }: { copy: SyncCopy; before: BrandStates; label: string }): void {
    const later = new Map<string, Set<string | null>>();
    for (const written of this.written) {
      if (visibleIn(before, written.xid)) continue;
      if (!later.has(written.id)) later.set(written.id, new Set());
      later.get(written.id)!.add(written.state);
    }
    for (const id of new Set([...before.states.keys(), ...copy.records.keys()])) {
      const held = (copy.records.get(id)?.name as string | undefined) ?? null;
      const allowed = new Set([before.states.get(id) ?? null, ...(later.get(id) ?? [])]);
      expect(allowed.has(held), `${label}: ${id} is ${held} in the copy; allowed ${JSON.stringify([...allowed])}`).to.equal(true);
    }
  }
}

/** The brand's records now, by id, with the snapshot they were read in (one repeatable-read transaction; a standby allows it). */
export async function brandStates(client: pg.Client, brandId: string): Promise<BrandStates> {
  await client.query('begin isolation level repeatable read read only');
  try {
    const { s: snapshot, r: onStandby } = (await client.query('select pg_current_snapshot()::text as s, pg_is_in_recovery() as r')).rows[0];
    const { rows } = await client.query('select id, name from carton_sizes where brand_id = $1', [brandId]);
    return { snapshot, onStandby, states: new Map(rows.map((row) => [row.id as string, row.name as string])) };
  } finally {
    await client.query('commit');
  }
}
