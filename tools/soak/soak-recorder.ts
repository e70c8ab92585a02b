import type { SoakOutcome } from './soak-sender.ts';
import type { MemorySample } from './soak-server.ts';
import { countStatus, percentiles, type Percentiles } from './soak-stats.ts';

/** One progress line's numbers: the interval's own answers and latencies, and memory at its end. */
export interface IntervalReport {
  /** Seconds since traffic began, at the end of the interval. */
  readonly atSeconds: number;
  readonly requests: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly requestErrors: number;
  readonly latencyMs: Percentiles;
  readonly rssBytes: number | null;
  readonly heapUsedBytes: number | null;
}

export interface TimedMemorySample extends MemorySample {
  readonly atSeconds: number;
}

/** Totals of the whole run. */
export interface RunTotals {
  readonly requests: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly requestErrors: number;
  /** Why requests got no answer, by message. */
  readonly errorMessages: Readonly<Record<string, number>>;
  /** Answers by kind of request. */
  readonly byKind: Readonly<Record<string, number>>;
  /** `kind: expected E, got S` → count, for answers other than expected. */
  readonly unexpected: Readonly<Record<string, number>>;
  readonly latencyMs: Percentiles;
}

/** Collects outcomes per interval and overall, and memory samples; closes once, after which it ignores late outcomes. */
export class SoakRecorder {
  private readonly statuses: Record<string, number> = {};
  private readonly byKind: Record<string, number> = {};
  private readonly unexpected: Record<string, number> = {};
  private readonly errorMessages: Record<string, number> = {};
  private readonly latencies: number[] = [];
  private requestErrors = 0;
  private interval = { statuses: {} as Record<string, number>, latencies: [] as number[], errors: 0 };
  private closed = false;
  readonly intervals: IntervalReport[] = [];
  readonly memory: TimedMemorySample[] = [];

  record(outcome: SoakOutcome): void {
    if (this.closed) return;
    const { request, status } = outcome;
    countStatus(this.byKind, request.kind);
    if (status === null) {
      this.requestErrors += 1;
      this.interval.errors += 1;
      const message = outcome.error ?? 'unknown';
      this.errorMessages[message] = (this.errorMessages[message] ?? 0) + 1;
      return;
    }
    countStatus(this.statuses, status);
    countStatus(this.interval.statuses, status);
    this.latencies.push(outcome.latencyMs);
    this.interval.latencies.push(outcome.latencyMs);
    if (status !== request.expect) countStatus(this.unexpected, `${request.kind}: expected ${request.expect}, got ${status}`);
  }

  /** Requests that never got an answer, counted after the drain gave up on them. */
  addAbandoned(count: number): void {
    if (count === 0) return;
    this.requestErrors += count;
    this.errorMessages['abandoned after the drain'] = (this.errorMessages['abandoned after the drain'] ?? 0) + count;
  }

  sampleMemory(sample: TimedMemorySample): void {
    this.memory.push(sample);
  }

  /** Ends the interval at `atSeconds`, with the last memory sample. */
  endInterval(atSeconds: number): IntervalReport {
    const last = this.memory[this.memory.length - 1];
    const { statuses, latencies, errors } = this.interval;
    const report: IntervalReport = Object.freeze({
      atSeconds,
      requests: latencies.length + errors,
      statuses,
      requestErrors: errors,
      latencyMs: percentiles(latencies),
      rssBytes: last?.rssBytes ?? null,
      heapUsedBytes: last?.heapUsedBytes ?? null,
    });
    this.intervals.push(report);
    this.interval = { statuses: {}, latencies: [], errors: 0 };
    return report;
  }

  close(): void {
    this.closed = true;
  }

  totals(): RunTotals {
    return Object.freeze({
      requests: this.latencies.length + this.requestErrors,
      statuses: { ...this.statuses },
      requestErrors: this.requestErrors,
      errorMessages: { ...this.errorMessages },
      byKind: { ...this.byKind },
      unexpected: { ...this.unexpected },
      latencyMs: percentiles(this.latencies),
    });
  }
}
