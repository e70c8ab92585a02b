import type { Flatness } from './soak-flatness.ts';
import { FAULT_DESCRIPTIONS, type ScheduledFault } from './fault-schedule.ts';
import { RECOVERY_GRACE_MS, type FaultAnswer, type FaultVerdict } from './fault-verdict.ts';

/** Everything the markdown report of a scheduled-fault soak says. */
export interface FaultReportInput {
  readonly startedAt: string;
  readonly durationS: number;
  readonly readers: number;
  readonly schedule: readonly ScheduledFault[];
  readonly answers: readonly FaultAnswer[];
  readonly verdict: FaultVerdict;
  readonly writer: { readonly inserts: number; readonly updates: number; readonly deletes: number; readonly failed: number };
  readonly follower: { readonly batches: number; readonly failed: number; readonly records: number };
  readonly hangups: number;
  readonly heap: Flatness;
  readonly environment: string;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number | null): string => (bytes === null ? '?' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function statusLine(answers: readonly FaultAnswer[]): string {
  const counts = new Map<number, number>();
  for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status === 0 ? 'no answer' : status}: ${n}`).join(', ');
}

/** The report, as markdown: what was injected, what each fault cost, and the verdict. */
export function formatFaultReport(input: FaultReportInput): string {
  const { verdict } = input;
  const latencies = input.answers.map((answer) => answer.ms);
  const lines = [
    `# Soak with faults on a schedule (${input.startedAt})`,
    '',
    `Made by \`npm run soak -- --faults --duration ${input.durationS}\`: ${input.environment}`,
    '',
    `**Verdict: ${verdict.pass ? 'pass' : 'FAIL'}.**${verdict.pass ? '' : ` ${verdict.reasons.join('; ')}.`}`,
    '',
    '## Traffic',
    '',
    `- Reads: ${input.answers.length} from ${input.readers} readers (lists, gets, cursor walks) through the server; ${statusLine(input.answers)}.`,
    `  Latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(0, ...latencies).toFixed(0)} ms.`,
    `- Writer on the primary (through the same address as the server): ${input.writer.inserts} inserts, ${input.writer.updates} updates, ${input.writer.deletes} deletes committed; ${input.writer.failed} refused during the faults.`,
    `- Follower: ${input.follower.batches} batches of the changes feed (${input.follower.failed} answered 503 and were tried again); its copy of ${input.follower.records} records ${verdict.reasons.some((r) => r.startsWith('the copy')) ? 'DIFFERS from' : 'equals'} the database at the end.`,
    `- A client that hangs up mid-answer: ${input.hangups} requests abandoned after the first bytes.`,
    `- Heap (median of the last third against the middle third): ${mb(input.heap.middleMedian)} → ${mb(input.heap.lastMedian)}, ${input.heap.state} (${input.heap.samples} samples).`,
    `- 5xx outside the faults' windows (each fault's window runs to ${RECOVERY_GRACE_MS / 1000} s after it was lifted): ${verdict.outside5xx}.`,
    '',
    '## What was injected and what it cost',
    '',
    '| Fault | Planned at | Began | Lifted | Reads in the window | 503s | Slowest read | Last 503 after lifted |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...verdict.costs.map((cost) => {
      const planned = input.schedule.find((fault) => fault.kind === cost.kind);
      return `| ${cost.kind} | ${planned ? `${planned.atS} s, for ${planned.forS} s` : '?'} | ${seconds(cost.startMs)} | ${seconds(cost.endMs)} | ${cost.answers} | ${cost.unavailable} | ${cost.maxMs.toFixed(0)} ms | ${seconds(cost.recoveryMs)} |`;
    }),
    '',
    ...input.schedule.map((fault) => `- \`${fault.kind}\`: ${FAULT_DESCRIPTIONS[fault.kind]}.`),
    '',
  ];
  return `${lines.join('\n')}`;
}
