import type { Flatness } from './soak-flatness.ts';
import type { IntervalReport, RunTotals, TimedMemorySample } from './soak-recorder.ts';
import type { Percentiles } from './soak-stats.ts';
import type { Verdict } from './soak-verdict.ts';

/** The JSON report `--json` writes (and the summary is printed from). */
export interface SoakReport {
  readonly options: { readonly duration: number; readonly rate: number; readonly connections: number; readonly interval: number };
  readonly database: 'postgres' | 'embedded';
  readonly rateLimits: 'redis' | 'memory';
  readonly rateLimitPoints: number;
  readonly rateLimitWindowSeconds: number;
  readonly keys: readonly string[];
  readonly families: number;
  readonly elapsedSeconds: number;
  readonly sent: number;
  readonly skipped: number;
  readonly totals: RunTotals;
  readonly memory: {
    readonly rss: MemoryRange;
    readonly heapUsed: MemoryRange;
    readonly heapFlatness: Flatness;
    readonly rssFlatness: Flatness;
    readonly samples: readonly TimedMemorySample[];
  };
  readonly intervals: readonly IntervalReport[];
  readonly server: { readonly pid: number; readonly exitCode: number | null; readonly warnings: number; readonly firstWarnings: readonly unknown[] };
  readonly verdict: Verdict;
}

export interface MemoryRange {
  readonly first: number | null;
  readonly last: number | null;
  readonly max: number | null;
}

export function memoryRange(values: readonly (number | null)[]): MemoryRange {
  const present = values.filter((v): v is number => v !== null);
  return Object.freeze({
    first: present[0] ?? null,
    last: present[present.length - 1] ?? null,
    max: present.length === 0 ? null : Math.max(...present),
  });
}

const mb = (bytes: number | null): string => (bytes === null ? '-' : `${(bytes / 1024 / 1024).toFixed(1)}MB`);
const ms = (value: number | null): string => (value === null ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1));
const statusList = (statuses: Readonly<Record<string, number>>): string =>
  Object.keys(statuses).sort().map((status) => `${status}:${statuses[status]}`).join(' ') || '-';
const pct = (p: Percentiles): string => `p50 ${ms(p.p50)} p95 ${ms(p.p95)} p99 ${ms(p.p99)} ms`;

/** One progress line per interval, for stderr. */
export function formatInterval(report: IntervalReport): string {
  return `[soak ${String(report.atSeconds).padStart(4)}s] ${String(report.requests).padStart(6)} req  ${statusList(report.statuses)}  errors ${report.requestErrors}  ${pct(report.latencyMs)}  rss ${mb(report.rssBytes)} heap ${mb(report.heapUsedBytes)}`;
}

function flatnessLine(name: string, f: Flatness): string {
  if (f.state === 'inconclusive') return `${name}: inconclusive (${f.samples} samples)`;
  return `${name}: ${f.state} (median middle third ${mb(f.middleMedian)}, last third ${mb(f.lastMedian)}, growth ${mb(f.growthBytes)}, allowed ${mb(f.allowedBytes)}; ${f.samples} samples)`;
}

/** The closing summary: a table by status, overall percentiles, memory, and the verdict. */
export function formatSummary(report: SoakReport): string {
  const { totals } = report;
  const lines = [
    '',
    `soak summary: ${report.database} database, ${report.rateLimits} rate limits (${report.rateLimitPoints}/${report.rateLimitWindowSeconds}s per key), ${report.families} families, keys ${report.keys.join(', ')}`,
    `  ${report.elapsedSeconds.toFixed(1)} s at ${report.options.rate} req/s over ${report.options.connections} connections: ${report.sent} sent, ${totals.requests} done, ${report.skipped} skipped`,
    '',
    '  status   count     share',
  ];
  for (const status of Object.keys(totals.statuses).sort()) {
    const count = totals.statuses[status]!;
    lines.push(`  ${status.padEnd(6)} ${String(count).padStart(7)}  ${((100 * count) / Math.max(1, totals.requests)).toFixed(1).padStart(7)}%`);
  }
  lines.push(`  errors ${String(totals.requestErrors).padStart(7)}  ${Object.entries(totals.errorMessages).map(([m, n]) => `${m} ×${n}`).join('; ')}`);
  lines.push('', `  by kind: ${Object.entries(totals.byKind).sort().map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const unexpected = Object.entries(totals.unexpected);
  lines.push(`  unexpected statuses: ${unexpected.length === 0 ? 'none' : unexpected.map(([k, n]) => `${k} ×${n}`).join('; ')}`);
  lines.push(`  latency overall: ${pct(totals.latencyMs)}, max ${ms(totals.latencyMs.max)} ms`);
  const { rss, heapUsed } = report.memory;
  lines.push(`  RSS: first ${mb(rss.first)}, last ${mb(rss.last)}, max ${mb(rss.max)}; heap used: first ${mb(heapUsed.first)}, last ${mb(heapUsed.last)}, max ${mb(heapUsed.max)}`);
  lines.push(`  ${flatnessLine('heap used', report.memory.heapFlatness)}`);
  lines.push(`  ${flatnessLine('RSS', report.memory.rssFlatness)}`);
  lines.push(`  server log lines at warn or above: ${report.server.warnings}; server exit code ${report.server.exitCode}`);
  for (const note of report.verdict.notes) lines.push(`  note: ${note}`);
  lines.push('', report.verdict.pass ? 'PASS' : `FAIL\n${report.verdict.reasons.map((r) => `  - ${r}`).join('\n')}`);
  return `${lines.join('\n')}\n`;
}
