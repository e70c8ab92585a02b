import { databaseAnswers } from './database-answers.ts';
import type { ReplicaState } from './replica-turn.ts';

export interface ReplicaLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** A probe that takes longer than this counts as a failure. */
const PROBE_TIMEOUT_MS = 2_000;

export interface ReplicaProbes {
  /** Takes a replica out of the turn (a second failure while out changes nothing) and probes it until it answers. */
  takeOut(state: ReplicaState, error: Error): void;
  /** Stops the probes of these replicas; none is started after. */
  close(states: readonly ReplicaState[]): void;
}

/**
 * A replica out of the turn is probed in the background every `retryMs` and
 * comes back once it answers; requests are never used as probes. Going out
 * and coming back are logged.
 */
export function createReplicaProbes({ log, retryMs }: { log: ReplicaLog; retryMs: number }): ReplicaProbes {
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

  return {
    takeOut(state, error) {
      if (!state.available) return;
      state.available = false;
      state.replayed = null; // it may come back as another copy (restored, or rebuilt): look again
      log.warn({ replica: state.target.name, err: error.message, retryMs }, 'replica failed: reads go elsewhere until it answers again');
      probeLater(state);
    },
    close(states) {
      closed = true;
      for (const state of states) {
        if (state.probe) clearTimeout(state.probe);
        state.probe = null;
      }
    },
  };
}
