/**
 * The seed clock: records a minute apart, set to the moment of each step of
 * the season. Groups write in the order foreign keys need, which is not
 * always the order things happened (a sample round in March is written before
 * an order of February), so a step sets the clock to when it happened.
 */
export interface SeedClock {
  /** The next timestamp, a minute after the previous one. */
  next(): string;
  /** Sets the clock to an instant: the next record is stamped then. */
  jumpTo(at: string): void;
}

export function createClock(start: string): SeedClock {
  let current = Date.parse(start) - 60_000;
  return {
    next() {
      current += 60_000;
      return new Date(current).toISOString();
    },
    jumpTo(at: string) {
      const target = Date.parse(at);
      if (Number.isNaN(target)) throw new Error(`seed clock: not an instant: ${at}`);
      current = target - 60_000;
    },
  };
}
