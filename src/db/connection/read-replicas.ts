import type { Knex } from 'knex';
import { isConnectionFailure, isRecoveryConflict } from './connection-failure.ts';
import { createReplicaProbes, type ReplicaLog, type ReplicaProbes } from './replica-probes.ts';
import { createReplicaTurn, learnReplayed, type ReadTarget, type ReplicaState } from './replica-turn.ts';
import { parseLsn, walPosition } from './wal-position.ts';

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

export function createReadReplicas({ primary, replicas, log, retryMs = REPLICA_RETRY_MS }: {
  primary: ReadTarget;
  replicas: readonly ReadTarget[];
  log: ReplicaLog;
  retryMs?: number;
}): ReadReplicas {
  const turn = createReplicaTurn({ primary, replicas });
  const { states } = turn;
  const probes = createReplicaProbes({ log, retryMs });
  const listeners: ((target: string) => void)[] = [];
  return {
    async run(read, options) {
      if (states.length === 0) {
        // One copy: nothing to pick, nowhere else to go; the loop below does the same with a list and a parse more a request.
        const result = await read(primary.db);
        for (const listener of listeners) listener(primary.name);
        return result;
      }
      const needed = parseLsn(options?.after ?? null);
      let lastError: unknown = null;
      for (const { target, state } of turn.candidates()) {
        if (state !== null && needed !== null && !(await hasReplayed({ state, needed, probes }))) continue;
        try {
          const result = await read(target.db);
          for (const listener of listeners) listener(target.name);
          return result;
        } catch (error) {
          if (state === null) throw error; // the primary: nowhere else to go
          if (isConnectionFailure(error)) probes.takeOut(state, error as Error);
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
      if (state) learnReplayed(state, lsn);
      return parseLsn(lsn) === null ? null : lsn;
    },
    state() {
      return [{ name: primary.name, available: true }, ...states.map((state) => ({ name: state.target.name, available: state.available }))];
    },
    onRead(listener) {
      listeners.push(listener);
    },
    close() {
      probes.close(states);
    },
  };
}

/** Whether a replica has replayed `needed`, asking it when what is known is not enough; one that cannot answer is taken out. */
async function hasReplayed({ state, needed, probes }: { state: ReplicaState; needed: bigint; probes: ReplicaProbes }): Promise<boolean> {
  if (state.replayed !== null && state.replayed >= needed) return true;
  try {
    learnReplayed(state, await walPosition(state.target.db));
  } catch (error) {
    if (isConnectionFailure(error)) probes.takeOut(state, error as Error);
    return false;
  }
  return state.replayed !== null && state.replayed >= needed;
}
