import type { Knex } from 'knex';
import { parseLsn } from './wal-position.ts';

export interface ReadTarget {
  /** `primary`, `replica-1`, `replica-2`, ... (never the URL: it may hold a password). */
  readonly name: string;
  readonly db: Knex;
}

/** What is known of one replica. */
export interface ReplicaState {
  readonly target: ReadTarget;
  /** In the turn; false from a connection failure until a probe answers. */
  available: boolean;
  probe: NodeJS.Timeout | null;
  /** The highest WAL position it is known to have replayed (it only grows); null before the first look. */
  replayed: bigint | null;
}

/** A copy to try a request's reads on: a replica with what is known of it, or the primary (`state` null). */
export interface Candidate {
  readonly target: ReadTarget;
  readonly state: ReplicaState | null;
}

export interface ReplicaTurn {
  readonly states: readonly ReplicaState[];
  /** The replicas in the turn, starting with the next one, then the primary. */
  candidates(): Candidate[];
}

/** Every replica starts in the turn, its WAL position not yet known; each call of `candidates` moves the turn on by one. */
export function createReplicaTurn({ primary, replicas }: { primary: ReadTarget; replicas: readonly ReadTarget[] }): ReplicaTurn {
  const states: ReplicaState[] = replicas.map((target) => ({ target, available: true, probe: null, replayed: null }));
  let turn = 0;
  return {
    states,
    candidates() {
      const out: Candidate[] = [];
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
    },
  };
}

/** Remembers that a replica has replayed `lsn`; what is known only grows, and a text that is no LSN teaches nothing. */
export function learnReplayed(state: ReplicaState, lsn: string | null): void {
  const position = parseLsn(lsn);
  if (position !== null && (state.replayed === null || position > state.replayed)) state.replayed = position;
}
