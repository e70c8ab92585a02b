/**
 * The counts of each key running on the database: at most `maxRunning` (2)
 * at once, and beyond that one waiting count, shared by every request that
 * joins it, which starts as soon as one of the running ends.
 *
 * Each count says where it starts from: a snapshot taken before the count
 * was sent (the probe that found the remembered count stale), so everything
 * that snapshot saw, the count sees too. A request arriving while a count
 * runs asks whether anything of the brand was written since that point: if
 * not, the running count is exact for it as well, and it waits for that
 * count instead of running its own (exact-counts.ts). Null: the point is
 * unknown (nothing was probed before it), and nobody joins it.
 */

export interface Flight<R> {
  /** A snapshot taken before the count started, as text; null when none was. */
  readonly from: string | null;
  /** Made in this order: a later flight starts from a later point. */
  readonly order: number;
  readonly result: Promise<R>;
}

export interface CountFlights<R> {
  /** Of the running counts of `key` whose starting point is known, the one made last. */
  newest(key: string): Flight<R> | undefined;
  /** The count of `key` waiting to start: it starts after whoever joins it now arrived. */
  waiting(key: string): Flight<R> | undefined;
  /**
   * A count of `key` from `from`: started now while fewer than `maxRunning`
   * of the key run, else the waiting one (made if there is none). `run`
   * gets the flight's order.
   */
  start(key: string, from: string | null, run: (order: number) => Promise<R>): Flight<R>;
  /** Keys with a count running or waiting (for tests and metrics). */
  readonly size: number;
}

/**
 * Counts of one key at once: two, so that two readers of a brand written
 * all day each get a fresh count as soon as they ask, as two plain
 * `count(*)`s would (with one at a time, the second waited up to twice a
 * count's time: 0.57× of the floor's pace, bench run 2026-11-28 17:56), while
 * under load the database counts a key at most twice at once, however many
 * ask.
 */
export const MAX_RUNNING_COUNTS = 2;

interface KeyFlights<R> {
  readonly running: Set<Flight<R>>;
  waiting: Flight<R> | null;
  /** Forgets the key once nothing of it runs or waits. */
  readonly forgetIfIdle: () => void;
}

/** Starts a count now, among the key's running ones until it ends. */
function launch<R>(flights: KeyFlights<R>, from: string | null, order: number, run: (order: number) => Promise<R>): Flight<R> {
  const flight: Flight<R> = { from, order, result: run(order) };
  flights.running.add(flight);
  const settle = (): void => {
    flights.running.delete(flight);
    flights.forgetIfIdle();
  };
  flight.result.then(settle, settle);
  return flight;
}

/**
 * Runs `start` when the first running count of the key ends (its `settle`
 * ran first: it was attached first). If that count failed (a statement
 * timeout, Postgres gone), the waiting one fails with it rather than start a
 * count that may fail the same way.
 */
function afterSlotFrees<R>(flights: KeyFlights<R>, start: () => Promise<R>): Promise<R> {
  return Promise.race([...flights.running].map((flight) => flight.result)).then(
    () => {
      flights.waiting = null;
      return start();
    },
    (error: unknown) => {
      flights.waiting = null;
      flights.forgetIfIdle();
      throw error;
    },
  );
}

export function createCountFlights<R>({ maxRunning = MAX_RUNNING_COUNTS }: { maxRunning?: number } = {}): CountFlights<R> {
  const keys = new Map<string, KeyFlights<R>>();
  let made = 0;

  const flightsOf = (key: string): KeyFlights<R> => {
    let flights = keys.get(key);
    if (!flights) {
      const fresh: KeyFlights<R> = {
        running: new Set(),
        waiting: null,
        forgetIfIdle: () => {
          if (fresh.running.size === 0 && fresh.waiting === null && keys.get(key) === fresh) keys.delete(key);
        },
      };
      flights = fresh;
      keys.set(key, flights);
    }
    return flights;
  };

  return {
    newest(key) {
      let newest: Flight<R> | undefined;
      for (const flight of keys.get(key)?.running ?? []) {
        if (flight.from !== null && (newest === undefined || flight.order > newest.order)) newest = flight;
      }
      return newest;
    },
    waiting(key) {
      return keys.get(key)?.waiting ?? undefined;
    },
    start(key, from, run) {
      const flights = flightsOf(key);
      if (flights.waiting) return flights.waiting;
      const order = ++made;
      if (flights.running.size < maxRunning) return launch(flights, from, order, run);
      flights.waiting = { from, order, result: afterSlotFrees(flights, () => launch(flights, from, order, run).result) };
      return flights.waiting;
    },
    get size() {
      return keys.size;
    },
  };
}
