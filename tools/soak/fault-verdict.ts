import type { Flatness } from './soak-flatness.ts';
import type { FaultKind } from './fault-schedule.ts';

/**
 * The verdict of a scheduled-fault soak, and what each fault cost. Pure: it
 * judges the answers and windows the run recorded.
 */

/** One read's answer, timed from the start of traffic. */
export interface FaultAnswer {
  readonly sentMs: number;
  readonly ms: number;
  /** 0: no answer (the request failed or hung). */
  readonly status: number;
  /** Why the answer was wrong (a get of another id, a list out of order, a 503 without Retry-After), or null. */
  readonly wrong: string | null;
}

/** When a fault really began and ended (it was lifted), from the start of traffic. */
export interface FaultWindow {
  readonly kind: FaultKind;
  readonly startMs: number;
  readonly endMs: number;
}

/** After a fault is lifted the service is given this long to serve again before a 503 counts against it. */
export const RECOVERY_GRACE_MS = 10_000;

export interface FaultCost {
  readonly kind: FaultKind;
  readonly startMs: number;
  readonly endMs: number;
  /** Reads sent from the fault's start to the end of its grace. */
  readonly answers: number;
  readonly unavailable: number;
  /** The slowest of those reads. */
  readonly maxMs: number;
  /** From the fault lifted to the last 503 answered for it (0: none after it was lifted). */
  readonly recoveryMs: number;
}

export interface FaultVerdict {
  readonly pass: boolean;
  readonly reasons: readonly string[];
  readonly costs: readonly FaultCost[];
  /** 5xx answers outside every fault's window (its grace included). */
  readonly outside5xx: number;
}

export interface FaultRunFacts {
  readonly answers: readonly FaultAnswer[];
  readonly windows: readonly FaultWindow[];
  /** Differences between the follower's copy and the database at the end (none: equal). */
  readonly copyDifferences: readonly string[];
  readonly heap: Flatness;
}

const inWindow = (answer: FaultAnswer, window: FaultWindow): boolean => answer.sentMs >= window.startMs && answer.sentMs <= window.endMs + RECOVERY_GRACE_MS;

function costOf(window: FaultWindow, answers: readonly FaultAnswer[]): FaultCost {
  const mine = answers.filter((answer) => inWindow(answer, window));
  const unavailable = mine.filter((answer) => answer.status === 503);
  const lastDone = Math.max(window.endMs, ...unavailable.map((answer) => answer.sentMs + answer.ms));
  return {
    kind: window.kind,
    startMs: window.startMs,
    endMs: window.endMs,
    answers: mine.length,
    unavailable: unavailable.length,
    maxMs: Math.max(0, ...mine.map((answer) => answer.ms)),
    recoveryMs: Math.round(lastDone - window.endMs),
  };
}

/**
 * Passes when: no wrong answer; every request answered; no 5xx but 503
 * inside a fault's window and its grace, none at all outside; the copy kept
 * by the changes feed equals the database; the heap is not growing.
 */
export function judgeFaultRun(facts: FaultRunFacts): FaultVerdict {
  const reasons: string[] = [];
  const wrong = facts.answers.filter((answer) => answer.wrong !== null);
  if (wrong.length > 0) reasons.push(`${wrong.length} wrong answer(s), the first: ${wrong[0]!.wrong}`);
  const unanswered = facts.answers.filter((answer) => answer.status === 0).length;
  if (unanswered > 0) reasons.push(`${unanswered} request(s) got no answer`);
  const faulty = (answer: FaultAnswer): boolean => answer.status >= 500;
  const outside = facts.answers.filter((answer) => faulty(answer) && !facts.windows.some((window) => inWindow(answer, window)));
  if (outside.length > 0) reasons.push(`${outside.length} 5xx outside the faults' windows (statuses ${[...new Set(outside.map((a) => a.status))].join(', ')})`);
  const not503 = facts.answers.filter((answer) => faulty(answer) && answer.status !== 503 && facts.windows.some((window) => inWindow(answer, window)));
  if (not503.length > 0) reasons.push(`${not503.length} 5xx other than 503 during the faults (statuses ${[...new Set(not503.map((a) => a.status))].join(', ')})`);
  if (facts.copyDifferences.length > 0) reasons.push(`the copy kept by the changes feed differs from the database: ${facts.copyDifferences.slice(0, 3).join('; ')}`);
  if (facts.heap.state === 'growing') reasons.push(`the heap grew by ${facts.heap.growthBytes} bytes (allowed ${facts.heap.allowedBytes})`);
  return {
    pass: reasons.length === 0,
    reasons,
    costs: facts.windows.map((window) => costOf(window, facts.answers)),
    outside5xx: outside.length,
  };
}

/** The differences between a copy (id → record text) and the database's rows, at most `max` of them. */
export function copyDifferences({ copy, database, max = 10 }: { copy: ReadonlyMap<string, string>; database: ReadonlyMap<string, string>; max?: number }): string[] {
  const found: string[] = [];
  for (const [id, text] of database) {
    if (found.length >= max) return found;
    if (!copy.has(id)) found.push(`${id} missing from the copy`);
    else if (copy.get(id) !== text) found.push(`${id} differs: copy ${copy.get(id)}, database ${text}`);
  }
  for (const id of copy.keys()) {
    if (found.length >= max) return found;
    if (!database.has(id)) found.push(`${id} in the copy, not in the database`);
  }
  return found;
}
