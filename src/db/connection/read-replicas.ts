import type { Knex } from 'knex';
import { databaseAnswers } from './database-answers.ts';

/**
 * Reads spread over Postgres streaming replicas (DATABASE_REPLICA_URLS).
 *
 * - Each request's reads go to the next available replica in turn; with no
 *   replica available, to the primary. Key checks never come here: they stay
 *   on the primary, so a new or revoked key takes effect at once.
 * - A replica whose connection fails (refused, reset, shut down, no
 *   connection within the pool's wait) is taken out of the turn and the
 *   request's reads run again on the next replica, or the primary: reads
 *   have no side effects, so a request never fails because one copy went
 *   away. A statement that fails for another reason (a timeout, a bug) is
 *   not retried.
 * - A replica out of the turn is probed in the background every
 *   `retryMs` and comes back once it answers; requests are never used as
 *   probes.
 * - Cursor walks keep in step (`Reads` in src/engine/read/reads.ts): a mark is the WAL position the
 *   copy has (a replica's last replayed LSN, the primary's insert position),
 *   and a later page goes only to a replica known to have replayed its
 *   walk's mark; one not known to is asked once (a one-row query), and
 *   the primary, always ahead, is the last resort.
 */

/** How long a failed replica stays out of the turn before it is probed again. */
export const REPLICA_RETRY_MS = 5_000;
/** A probe that takes longer than this counts as a failure. */
const PROBE_TIMEOUT_MS = 2_000;

export interface ReadTarget {
  /** `primary`, `replica-1`, `replica-2`, ... (never the URL: it may hold a password). */
  readonly name: string;
  readonly db: Knex;
}

export interface ReplicaLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export interface ReadReplicas {
  /** Runs one request's reads on one copy: the next replica in turn, or one at least as new as `after`. */
  run<T>(read: (db: Knex) => Promise<T>, options?: { readonly after?: string | null }): Promise<T>;
  /** How new the data `db` serves is now (a WAL position); null when there is only one copy. */
  mark(db: Knex): Promise<string | null>;
  /** Each target and whether it is in the turn now (the primary always is). */
  state(): { name: string; available: boolean }[];
  /** Called with the target that served each request's reads (metrics). */
  onRead(listener: (target: string) => void): void;
  /** Stops the probes (the pools belong to the caller). */
  close(): void;
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE',
  // SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now (starting up or in recovery), too_many_connections.
  '57P01', '57P02', '57P03', '53300',
]);

/** The pg driver's own words for a connection that went away. */
const CONNECTION_LOST = /Connection terminated|connection is closed|Client has encountered a connection error|timeout exceeded when trying to connect/i;

/** A failure of the connection, not of the statement: the same read can succeed on another copy. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08'))) return true;
  // knex's wait for a pooled connection ran out: the replica does not accept connections in time.
  if (error.name === 'KnexTimeoutError') return true;
  return CONNECTION_LOST.test(error.message);
}

/** A hot standby cancelled the statement to apply WAL: worth running again elsewhere, the replica is fine. */
function isRecoveryConflict(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '40001' && /conflict with recovery/i.test(error.message);
}

interface ReplicaState {
  readonly target: ReadTarget;
  available: boolean;
  probe: NodeJS.Timeout | null;
  /** The highest WAL position it is known to have replayed (it only grows); null before the first look. */
  replayed: bigint | null;
}

/**
 * The WAL position of the data a copy serves: a replica's replayed one, or
 * on the primary the insert position, past every commit a query can see (the
 * write position may still be short of commits made with
 * `synchronous_commit = off`). coalesce evaluates its second argument only
 * on the primary, where the first is null.
 */
const WAL_POSITION_SQL = 'select coalesce(pg_last_wal_replay_lsn(), pg_current_wal_insert_lsn())::text as lsn';

/** `16/B374D848` as a number, or null when it is not an LSN. */
export function parseLsn(text: string | null): bigint | null {
  const match = text === null ? null : /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  return match ? (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`) : null;
}

async function walPosition(db: Knex): Promise<string | null> {
  const result = (await db.raw(WAL_POSITION_SQL)) as { rows: { lsn: string | null }[] };
  return result.rows[0]?.lsn ?? null;
}

export function createReadReplicas({ primary, replicas, log, retryMs = REPLICA_RETRY_MS }: {
  primary: ReadTarget;
  replicas: readonly ReadTarget[];
  log: ReplicaLog;
  retryMs?: number;
}): ReadReplicas {
  const states: ReplicaState[] = replicas.map((target) => ({ target, available: true, probe: null, replayed: null }));
  const listeners: ((target: string) => void)[] = [];
  let turn = 0;
  let closed = false;

  const probeLater = (state: ReplicaState): void => {
    if (closed) return;
    state.probe = setTimeout(() => {
      state.probe = null;
      void probe(state);
    }, retryMs);
    state.probe.unref();
  };

  const probe = async (state: ReplicaState): Promise<void> => {
    if (!(await databaseAnswers(state.target.db, PROBE_TIMEOUT_MS))) return probeLater(state);
    if (closed) return;
    state.available = true;
    log.info({ replica: state.target.name }, 'replica answers again: back in the turn');
  };

  const takeOut = (state: ReplicaState, error: Error): void => {
    if (!state.available) return;
    state.available = false;
    state.replayed = null; // it may come back as another copy (restored, or rebuilt): look again
    log.warn({ replica: state.target.name, err: error.message, retryMs }, 'replica failed: reads go elsewhere until it answers again');
    probeLater(state);
  };

  /** The replicas in the turn, starting with the next one, then the primary. */
  const candidates = (): { target: ReadTarget; state: ReplicaState | null }[] => {
    const out: { target: ReadTarget; state: ReplicaState | null }[] = [];
    if (states.length > 0) {
      const start = turn++ % states.length;
      if (turn >= Number.MAX_SAFE_INTEGER) turn = 0;
      for (let i = 0; i < states.length; i++) {
        const state = states[(start + i) % states.length]!;
        if (state.available) out.push({ target: state.target, state });
      }
    }
    out.push({ target: primary, state: null });
    return out;
  };

  const learn = (state: ReplicaState, lsn: string | null): void => {
    const position = parseLsn(lsn);
    if (position !== null && (state.replayed === null || position > state.replayed)) state.replayed = position;
  };

  /** Whether a replica has replayed `needed`, asking it when what is known is not enough. */
  const hasReplayed = async (state: ReplicaState, needed: bigint): Promise<boolean> => {
    if (state.replayed !== null && state.replayed >= needed) return true;
    try {
      learn(state, await walPosition(state.target.db));
    } catch (error) {
      if (isConnectionFailure(error)) takeOut(state, error as Error);
      return false;
    }
    return state.replayed !== null && state.replayed >= needed;
  };

  return {
    async run(read, { after = null } = {}) {
      const needed = parseLsn(after);
      let lastError: unknown = null;
      for (const { target, state } of candidates()) {
        if (state !== null && needed !== null && !(await hasReplayed(state, needed))) continue;
        try {
          const result = await read(target.db);
          for (const listener of listeners) listener(target.name);
          return result;
        } catch (error) {
          if (state === null) throw error; // the primary: nowhere else to go
          if (isConnectionFailure(error)) takeOut(state, error as Error);
          else if (!isRecoveryConflict(error)) throw error;
          lastError = error;
        }
      }
      throw lastError; // unreachable: the primary either answers or throws above
    },
    async mark(db) {
      if (states.length === 0) return null; // one copy: nothing to keep in step
      const lsn = await walPosition(db);
      const state = states.find((candidate) => candidate.target.db === db);
      if (state) learn(state, lsn);
      return parseLsn(lsn) === null ? null : lsn;
    },
    state() {
      return [{ name: primary.name, available: true }, ...states.map((state) => ({ name: state.target.name, available: state.available }))];
    },
    onRead(listener) {
      listeners.push(listener);
    },
    close() {
      closed = true;
      for (const state of states) {
        if (state.probe) clearTimeout(state.probe);
        state.probe = null;
      }
    },
  };
}
