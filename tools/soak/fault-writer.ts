import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * The writer of a scheduled-fault soak: inserts, updates and deletes on one
 * brand's carton sizes, one statement a transaction, through the same
 * address as the server (so it follows a failover). A write refused during a
 * fault is counted and the next one tried; every insert and update gives the
 * row a name of its own, so the follower's copy can be compared by name.
 */
export interface FaultWriter {
  readonly counts: { inserts: number; updates: number; deletes: number; failed: number };
  /** Holds the writer between two writes (a failover waits for the replica to catch up meanwhile). */
  pause(): Promise<void>;
  resume(): void;
  /** Stops it after the write under way; resolves when it has. */
  stop(): Promise<void>;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface WriterState {
  readonly counts: FaultWriter['counts'];
  /** The brand's ids as the writer last knew them; emptied to be read again. */
  ids: string[];
}

/** One write, of the kind `turn` picks: an insert (always while fewer than 20 rows), an update or a delete. */
async function writeOnce({ pool, brandId, state, turn }: { pool: pg.Pool; brandId: string; state: WriterState; turn: number }): Promise<void> {
  if (state.ids.length === 0) state.ids = (await pool.query<{ id: string }>('select id from carton_sizes where brand_id = $1', [brandId])).rows.map((row) => row.id);
  const { ids, counts } = state;
  const name = `Soak ${turn} ${randomUUID().slice(0, 8)}`;
  const kind = ids.length < 20 ? 0 : turn % 3;
  if (kind === 0) {
    const id = randomUUID();
    await pool.query(`insert into carton_sizes (id, brand_id, name, length_cm, width_cm, height_cm, created_at, updated_at) values ($1, $2, $3, 10, 10, 10, now(), now())`, [id, brandId, name]);
    ids.push(id);
    counts.inserts += 1;
  } else if (kind === 1) {
    await pool.query('update carton_sizes set name = $2, updated_at = now() where id = $1', [ids[turn % ids.length], name]);
    counts.updates += 1;
  } else {
    const [id] = ids.splice(turn % ids.length, 1);
    await pool.query('delete from carton_sizes where id = $1', [id]);
    counts.deletes += 1;
  }
}

export function startFaultWriter({ url, brandId, everyMs = 50 }: { url: string; brandId: string; everyMs?: number }): FaultWriter {
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 2000, query_timeout: 5000, application_name: 'bcat-soak-writer' });
  pool.on('error', () => undefined);
  const counts = { inserts: 0, updates: 0, deletes: 0, failed: 0 };
  const state: WriterState = { counts, ids: [] };
  let stopped = false;
  let held: Promise<void> | null = null;
  let release: () => void = () => undefined;
  let idle: () => void = () => undefined;

  const running = (async () => {
    for (let turn = 0; !stopped; turn++) {
      if (held) {
        idle();
        await held;
      }
      try {
        await writeOnce({ pool, brandId, state, turn });
      } catch {
        counts.failed += 1;
        state.ids = []; // read again: a failed write may or may not have committed
        await pause(200);
      }
      await pause(everyMs);
    }
  })();

  return {
    counts,
    async pause() {
      const idled = new Promise<void>((resolve) => {
        idle = resolve;
      });
      held = new Promise((resolve) => {
        release = resolve;
      });
      await idled;
    },
    resume() {
      held = null;
      release();
    },
    async stop() {
      stopped = true;
      this.resume();
      await running;
      await pool.end();
    },
  };
}
