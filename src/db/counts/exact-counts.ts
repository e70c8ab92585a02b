import { createCountBatcher } from './count-batcher.ts';
import { createCountFlights } from './count-flights.ts';

/**
 * `totalItems` for first pages, and counts by value: exact as of each
 * request, counted as rarely as that allows.
 *
 * A count says the snapshot it ran in, and a probe (one index probe per
 * table, compile/changed-since.ts) tells whether anything of the brand was
 * written since a snapshot by a transaction that snapshot did not see. So a
 * request is answered by the first of:
 *
 * - the count running now (count-flights.ts) whose starting point is the
 *   latest, when nothing was written since that point: that count is exact
 *   as of the probe, which began after the request arrived;
 * - the remembered count, when nothing was written since its snapshot;
 * - a count of its own, started now while fewer than two of the key run,
 *   else the one waiting to start (shared: it starts after all who join it).
 *
 * So writes to other brands, or other families, never make a big brand count
 * again; a write to its own rows does, and the total stays exact. Under writes
 * now and then, a request arriving during a count shares it rather than run a
 * second one beside it (which would run from an older snapshot, likely stale
 * too, and keep two counts running for every write); under writes every few
 * milliseconds, its probe finds the running count stale and it counts at
 * once, as a plain `count(*)` would.
 *
 * Those decisions run one at a time per key (count-batcher.ts, a probe each,
 * about a millisecond), and requests arriving during one share the next: each
 * decision serves only requests that arrived before it began.
 *
 * The probe sees every write the changes feed sees: a `TRUNCATE` (its
 * truncation record) and a session with `session_replication_role = replica`
 * (the triggers fire there too) included. Whatever still escapes it (a
 * trigger disabled by hand, a table swapped under the service) is seen
 * within `maxAgeMs`: a remembered count older than that is counted again.
 */

/**
 * A count and the snapshot it ran in, as text (null: unknown, never
 * reused). The total is a number for a list's `totalItems`, or any value a
 * count by value gives (its rows: read-counts.ts), remembered alike.
 */
export interface Counted<T = number> {
  readonly total: T;
  readonly snapshot: string | null;
}

/** What a probe found, and the snapshot it ran in (null: unknown). */
export interface Probed {
  readonly changed: boolean;
  readonly snapshot: string | null;
}

export interface CountSource<T = number> {
  count(): Promise<Counted<T>>;
  /** Whether any row the count may read was written by a transaction `snapshot` did not see, as a statement starting now sees. */
  changedSince(snapshot: string): Promise<Probed>;
}

export interface ExactCounts {
  /** The count of `key`: remembered while nothing it may read has changed. A key always comes with the same kind of count. */
  count<T = number>(key: string, source: CountSource<T>): Promise<T>;
}

/** Keys remembered at most (the oldest goes first): a key is a family, a brand and its filters. */
export const MAX_REMEMBERED_COUNTS = 10_000;
/** A remembered count is counted again after this long, whatever the probe says. */
export const MAX_COUNT_AGE_MS = 60_000;

/** A count given back while nothing changed: when it was started, and its flight's order (a later one is newer). */
type Remembered = Counted<unknown> & { readonly at: number; readonly order: number };

/**
 * Where a request's count came from: the remembered count (nothing of the
 * brand written since it), a count already running when the request came
 * (nothing written since it began), or a count started for it (its own, or
 * the waiting one it joined). The last two are counts that ran during the
 * request; the metrics say how often each answers (`bcat_count_answers_total`).
 */
export type CountAnswerSource = 'remembered' | 'running' | 'counted';

/** A decision's answer, wrapped so that the batcher does not wait for it: a decision ends when it has chosen. */
interface Decided<T> {
  readonly answer: Promise<T>;
  readonly from: CountAnswerSource;
}

export function createExactCounts({ now = Date.now, maxAgeMs = MAX_COUNT_AGE_MS, onAnswer }: {
  now?: () => number;
  maxAgeMs?: number;
  /** Told, for each request answered, where its count came from. */
  onAnswer?: (from: CountAnswerSource) => void;
} = {}): ExactCounts {
  const decisions = createCountBatcher({ maxRunning: 1 });
  const flights = createCountFlights<Counted<unknown>>();
  const remembered = new Map<string, Remembered>();

  const remember = (key: string, counted: Remembered): void => {
    const known = remembered.get(key);
    // Two counts of a key may end out of order: keep the later one's.
    if (known && known.order > counted.order) return;
    remembered.delete(key);
    if (counted.snapshot === null) return;
    if (remembered.size >= MAX_REMEMBERED_COUNTS) remembered.delete(remembered.keys().next().value!);
    remembered.set(key, counted);
  };

  const countOf = (key: string, source: CountSource<unknown>) => async (order: number): Promise<Counted<unknown>> => {
    const at = now();
    const counted = await source.count();
    remember(key, { ...counted, at, order });
    return counted;
  };

  const totalOf = <T>(result: Promise<Counted<unknown>>): Promise<T> => result.then((counted) => counted.total as T);

  async function decide<T>(key: string, source: CountSource<T>): Promise<Decided<T>> {
    const waiting = flights.waiting(key);
    if (waiting) return { answer: totalOf<T>(waiting.result), from: 'counted' };
    const running = flights.newest(key);
    const known = remembered.get(key);
    const reference = running && (!known || running.order > known.order) ? running : known;
    let from: string | null = null;
    const since = reference === running ? running?.from : known?.snapshot;
    if (since) {
      const probed = await source.changedSince(since);
      // Even a remembered count too old to give back tells where the new one starts from.
      from = probed.snapshot;
      if (!probed.changed) {
        if (reference === running) return { answer: totalOf<T>(running!.result), from: 'running' };
        if (now() - known!.at < maxAgeMs) return { answer: Promise.resolve(known!.total as T), from: 'remembered' };
      }
    }
    return { answer: totalOf<T>(flights.start(key, from, countOf(key, source)).result), from: 'counted' };
  }

  return {
    async count<T>(key: string, source: CountSource<T>): Promise<T> {
      const decided = await decisions.count(key, () => decide(key, source));
      const total = await decided.answer;
      onAnswer?.(decided.from);
      return total;
    },
  };
}
