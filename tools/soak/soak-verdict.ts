import type { Flatness } from './soak-flatness.ts';
import { serverErrors } from './soak-stats.ts';

/** What the verdict looks at: the run's totals and the two memory judgements. */
export interface VerdictInput {
  /** Answers by status, over the whole run. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Requests that got no answer: connection errors and timeouts. */
  readonly requestErrors: number;
  /** Answers whose status was not the one the request expected (a 400 on a plain list, a 429, …). */
  readonly unexpected: number;
  /** Sends skipped because the server fell behind the rate (a note: the rate was not held). */
  readonly skipped: number;
  readonly heap: Flatness;
  readonly rss: Flatness;
}

export interface Verdict {
  readonly pass: boolean;
  /** Why it failed, one line each; empty on a pass. */
  readonly reasons: readonly string[];
  /** Worth saying but not failing: an inconclusive memory judgement. */
  readonly notes: readonly string[];
}

const mb = (bytes: number | null): string => (bytes === null ? '-' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/**
 * PASS needs answers, none of them 5xx, every request answered (no error or
 * timeout), every answer the status its request expected, and memory that
 * is flat (see judgeFlatness; too few samples to judge is a note, not a fail,
 * and so is growth in a run whose server fell behind the rate, whose
 * unanswered requests hold memory).
 */
export function decideVerdict(input: VerdictInput): Verdict {
  const reasons: string[] = [];
  const notes: string[] = [];
  const answered = Object.values(input.statuses).reduce((a, b) => a + b, 0);
  if (answered === 0) reasons.push('no request was answered');
  const fivexx = serverErrors(input.statuses);
  if (fivexx > 0) reasons.push(`${fivexx} answers were 5xx`);
  if (input.requestErrors > 0) reasons.push(`${input.requestErrors} requests got no answer (connection error or timeout)`);
  if (input.unexpected > 0) reasons.push(`${input.unexpected} answers had another status than the request expected`);
  if (input.skipped > 0) notes.push(`${input.skipped} sends were skipped: the server fell behind the rate`);
  for (const [name, flatness] of [['heap used', input.heap], ['RSS', input.rss]] as const) {
    if (flatness.samples === 0) reasons.push(`no ${name} samples: the memory of the server was not measured`);
    else if (flatness.state === 'growing' && input.skipped > 0) {
      // A server behind its rate holds the requests it has not answered: growth then is the backlog, not a leak.
      notes.push(`${name} grew while the server fell behind the rate (+${mb(flatness.growthBytes)}): not judged; a slower --rate judges it`);
    } else if (flatness.state === 'growing') {
      reasons.push(`${name} is not flat: median ${mb(flatness.middleMedian)} → ${mb(flatness.lastMedian)} (+${mb(flatness.growthBytes)}, allowed ${mb(flatness.allowedBytes)})`);
    } else if (flatness.state === 'inconclusive') notes.push(`${name}: too few samples (${flatness.samples}) to judge flatness`);
  }
  return Object.freeze({ pass: reasons.length === 0, reasons: Object.freeze(reasons), notes: Object.freeze(notes) });
}
