/**
 * How much later than its `wait` a waited call with no change may be
 * answered (docs/ARCHITECTURE.md, "The changes feed, inside"). The waits' deadlines are rounded up to
 * a multiple of it, on the clock, so the waits that end in one slot end in
 * one timer and their answers leave together.
 *
 * Why: a waited call that times out costs the server far more than its own
 * work when it is alone: the process wakes from idle, its caches cold, and
 * its socket write wakes an idle client. A thousand followers of `wait=20`
 * end about fifty waits a second; ended one by one, their wake-ups were most
 * of the server's CPU while nobody wrote (docs/PERFORMANCE.md, "Live
 * changes"). In slots, one wake-up serves them all. The contract asks that
 * the empty batch come when `wait` seconds have passed: never earlier, and
 * here at most one slot later.
 */
export const DEADLINE_SLOT_MS = 1000;

/** Deadlines kept in slots: one timer per slot that holds any. */
export interface DeadlineSlots {
  /** Calls `fire` once `deadline` (ms since the epoch) has passed, at the end of its slot; returns the cancel (idempotent). */
  at(deadline: number, fire: () => void): () => void;
  /** Deadlines held now. */
  size(): number;
}

export function createDeadlineSlots(slotMs = DEADLINE_SLOT_MS): DeadlineSlots {
  const slots = new Map<number, { timer: NodeJS.Timeout; readonly fires: Set<() => void> }>();
  let held = 0;
  const open = (end: number): Set<() => void> => {
    let slot = slots.get(end);
    if (!slot) {
      const fires = new Set<() => void>();
      const fireWhenDue = (): void => {
        // A timer counts whole milliseconds of the monotonic clock, Date.now() those of the wall clock: the two
        // round apart, and the timer can come a millisecond before `end` by Date.now(). Never before: it waits out
        // what is left (the gate saw it fire 1 ms early).
        const left = end - Date.now();
        if (left > 0) {
          slot!.timer = setTimeout(fireWhenDue, left);
          return;
        }
        slots.delete(end);
        const due = [...fires];
        fires.clear(); // a cancel from now on finds nothing
        held -= due.length;
        for (const fire of due) fire();
      };
      slots.set(end, (slot = { timer: setTimeout(fireWhenDue, Math.max(0, end - Date.now())), fires }));
    }
    return slot.fires;
  };
  return {
    at(deadline, fire) {
      const end = Math.ceil(deadline / slotMs) * slotMs;
      const fires = open(end);
      // One entry per call, even if the same function is given twice.
      const entry = (): void => fire();
      fires.add(entry);
      held += 1;
      return () => {
        if (!fires.delete(entry)) return;
        held -= 1;
        const slot = slots.get(end);
        if (slot && slot.fires.size === 0) {
          clearTimeout(slot.timer);
          slots.delete(end);
        }
      };
    },
    size: () => held,
  };
}
