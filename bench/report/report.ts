import type { CaseResult } from '../measure/case-result.ts';
import type { CaseName } from '../measure/cases.ts';
import { renderCompression } from './compression-report.ts';
import { renderFeed } from './feed-report.ts';
import { renderLoaded, worstBigFilterRatio } from './loaded-report.ts';
import type { FeedResults } from '../measure/measure-feed.ts';
import type { CompressionRow } from '../measure/measure-compression.ts';
import type { LoadedRun } from '../measure/measure-loaded.ts';
import type { Scale } from '../data/scale.ts';
import { megabytes, milliseconds, thousands, times } from './format.ts';

export type { CaseResult } from '../measure/case-result.ts';

/** How, where and on what the run was made. */
export interface RunContext {
  readonly scale: Scale;
  readonly startedAt: string;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Postgres connections of each server. */
  readonly poolMax: number;
  readonly load: {
    readonly seconds: number;
    /** Postgres CPU seconds of the load, or null where unknown. */
    readonly cpuSeconds: number | null;
    readonly reused: boolean;
    readonly rows: Readonly<Record<string, number>>;
  };
  readonly machine: {
    readonly cpus: number;
    /** The 1, 5 and 15 minute load averages when the run started and when it ended: other work on the machine shows here. */
    readonly loadAverage: { readonly before: readonly number[]; readonly after: readonly number[] };
    readonly node: string;
    readonly postgres: string;
  };
  /** RSS of each process once started, before any load. */
  readonly idleRssBytes: { readonly server: number | null; readonly floor: number | null };
}

/** A target the issue set, as measured in this run; null where its cases were not run. */
export interface TargetCheck {
  readonly label: string;
  readonly value: number | null;
  readonly goal: string;
  readonly met: boolean | null;
}

/** A case's ratios: server req/s over each floor's, and server CPU per request over the prepared floor's. */
export interface CaseRatios {
  readonly requestsRatio: number;
  readonly preparedRatio: number;
  readonly cpuRatio: number;
}

export interface BenchReport extends RunContext {
  readonly cases: readonly (CaseResult & CaseRatios)[];
  /** p50 of the deep page over p50 of page 2, on each server. */
  readonly deepPaging: { readonly server: number | null; readonly floor: number | null };
  /** Peak RSS over all cases, on each server, and the server's over the floor's. */
  readonly rss: { readonly server: number | null; readonly floor: number | null; readonly ratio: number | null };
  /** The changes feed's cases (measured on the server alone). */
  readonly feed: FeedResults;
  /** Cases measured again under each write load. */
  readonly loaded: readonly LoadedRun[];
  /** Response compression's requests in each coding (measured on the server alone); empty when not run. */
  readonly compression: readonly CompressionRow[];
  readonly targets: readonly TargetCheck[];
}

const ratio = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a === null || a === undefined || b === null || b === undefined || b === 0 || !Number.isFinite(a) || !Number.isFinite(b) ? null : a / b;

const peak = (values: readonly (number | null)[]): number | null => {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : Math.max(...known);
};

/** The targets of the issue: each a value of this run, compared with its goal. */
const TARGETS: readonly {
  label: string;
  goal: string;
  value(report: Omit<BenchReport, 'targets'>): number | null;
  met(value: number): boolean;
}[] = [
  { label: 'get by id: req/s vs floor', goal: '≥ 0.8', value: (r) => caseRatio(r, 'get-by-id'), met: (v) => v >= 0.8 },
  { label: 'get by id: req/s vs prepared floor', goal: '≥ 0.8', value: (r) => caseRatio(r, 'get-by-id', 'preparedRatio'), met: (v) => v >= 0.8 },
  { label: 'get by id: CPU per request vs prepared floor', goal: '≤ 1.3', value: (r) => caseRatio(r, 'get-by-id', 'cpuRatio'), met: (v) => v <= 1.3 },
  { label: 'first page, small brand: req/s vs floor', goal: '≥ 0.8', value: (r) => caseRatio(r, 'first-page-small'), met: (v) => v >= 0.8 },
  { label: 'first page, big brand with filter: req/s vs floor', goal: '≥ 5', value: (r) => caseRatio(r, 'first-page-big-filter'), met: (v) => v >= 5 },
  { label: 'deep page p50 / page 2 p50 (server)', goal: '≤ 1.2', value: (r) => r.deepPaging.server, met: (v) => v <= 1.2 },
  { label: 'RSS ratio: server peak / floor peak', goal: '≤ 1.5', value: (r) => r.rss.ratio, met: (v) => v <= 1.5 },
  {
    label: 'under 200 writes/s to other brands: big filtered first page vs floor, worst over the connection counts', goal: '≥ 5',
    value: (r) => worstBigFilterRatio(r.loaded, 'writes-other-brands'), met: (v) => v >= 5,
  },
  {
    label: 'under 20 writes/s to the brands read: big filtered first page vs floor, worst over the connection counts', goal: '≥ 1',
    value: (r) => worstBigFilterRatio(r.loaded, 'writes-own-brand'), met: (v) => v >= 1,
  },
  { label: 'changes page of 100: list req/s / changes req/s', goal: '≤ 1.3', value: (r) => r.feed.pages?.ratio ?? null, met: (v) => v <= 1.3 },
  // The triggers cost writers at most 15 %.
  { label: "writers' updates/s with the feed's triggers / without", goal: '≥ 0.85', value: (r) => (r.feed.writers ? 1 - r.feed.writers.cost : null), met: (v) => v >= 0.85 },
];

function caseRatio(report: Omit<BenchReport, 'targets'>, name: CaseName, which: keyof CaseRatios = 'requestsRatio'): number | null {
  return report.cases.find((c) => c.name === name)?.[which] ?? null;
}

const NO_FEED: FeedResults = Object.freeze({ pages: null, batches: null, writers: null });

/** The ratios and target checks of a run. */
export function summarize({ context, cases, feed = NO_FEED, loaded = [], compression = [] }: {
  context: RunContext;
  cases: readonly CaseResult[];
  feed?: FeedResults;
  loaded?: readonly LoadedRun[];
  compression?: readonly CompressionRow[];
}): BenchReport {
  const byName = new Map(cases.map((c) => [c.name, c]));
  const second = byName.get('page-2');
  const deep = byName.get('page-2000');
  const serverRss = peak(cases.map((c) => c.server.peakRssBytes));
  const floorRss = peak(cases.map((c) => c.floor.peakRssBytes));
  const partial = {
    ...context,
    cases: cases.map((c) => ({
      ...c,
      requestsRatio: ratio(c.server.requestsPerSecond, c.floor.requestsPerSecond) ?? Number.NaN,
      preparedRatio: ratio(c.server.requestsPerSecond, c.preparedFloor.requestsPerSecond) ?? Number.NaN,
      cpuRatio: ratio(c.server.cpuMsPerRequest, c.preparedFloor.cpuMsPerRequest) ?? Number.NaN,
    })),
    deepPaging: { server: ratio(deep?.server.p50Ms, second?.server.p50Ms), floor: ratio(deep?.floor.p50Ms, second?.floor.p50Ms) },
    rss: { server: serverRss, floor: floorRss, ratio: ratio(serverRss, floorRss) },
    feed,
    loaded,
    compression,
  };
  return {
    ...partial,
    targets: TARGETS.map((target) => {
      const value = target.value(partial);
      return { label: target.label, goal: target.goal, value, met: value === null || Number.isNaN(value) ? null : target.met(value) };
    }),
  };
}

const loads = (averages: readonly number[]): string => averages.map((n) => n.toFixed(2)).join(' / ');
const verdict = (met: boolean | null): string => (met === null ? 'not run' : met ? 'yes' : '**no**');

/** The run as Markdown: what was run, one table of the cases, one of the targets. */
export function renderMarkdown(report: BenchReport): string {
  const { scale, load, machine } = report;
  const rows = Object.entries(load.rows).map(([table, count]) => `${table} ${thousands(count)}`).join(', ');
  const lines = [
    `## Benchmark: ${thousands(scale.products)} products, ${thousands(scale.brands)} brands (the big one ${thousands(scale.bigBrand)})`,
    '',
    `- Data: ${load.reused ? 'kept from an earlier run, which loaded it' : 'loaded'} in ${load.seconds.toFixed(1)} s${load.cpuSeconds === null ? '' : ` (${load.cpuSeconds.toFixed(1)} s of Postgres CPU)`}: ${rows}.`,
    `- Run ${report.startedAt}: ${report.durationSeconds} s per case and server after ${report.warmupSeconds} s of warm-up, ${report.connections} connections, ${report.poolMax} Postgres connections per server; each side's time in two halves run in mirrored order (A B C C B A over the server, the floor and the prepared floor; page 2 and the deep page interleaved).`,
    `- Machine: ${machine.cpus} CPUs, load average ${loads(machine.loadAverage.before)} at the start and ${loads(machine.loadAverage.after)} at the end; Node ${machine.node}, ${machine.postgres}.`,
    `- RSS at rest: server ${megabytes(report.idleRssBytes.server)} MB, floor ${megabytes(report.idleRssBytes.floor)} MB. CPU ms/req: the Node process's own CPU time per response.`,
    '',
    '| case | on | req/s | p50 ms | p99 ms | errors | peak RSS MB | CPU ms/req | req/s vs floor | vs prepared floor | CPU vs prepared floor | same answer |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
  ];
  for (const c of report.cases) {
    const same = c.differences.length === 0 ? 'yes' : `**no**: ${c.differences.join('; ')}`;
    for (const [on, m] of [['server', c.server], ['floor', c.floor], ['prepared floor', c.preparedFloor]] as const) {
      const ratios = on === 'server' ? [times(c.requestsRatio), times(c.preparedRatio), times(c.cpuRatio), same] : ['', '', '', ''];
      lines.push(`| ${on === 'server' ? c.title : ''} | ${on} | ${thousands(m.requestsPerSecond)} | ${milliseconds(m.p50Ms)} | ${milliseconds(m.p99Ms)} | ${m.errors + m.non2xx} | ${megabytes(m.peakRssBytes)} | ${m.cpuMsPerRequest === null ? 'n/a' : m.cpuMsPerRequest.toFixed(2)} | ${ratios.join(' | ')} |`);
    }
  }
  lines.push(
    '',
    `Deep paging, p50 of the deep page / p50 of page 2: server ${times(report.deepPaging.server)}, floor ${times(report.deepPaging.floor)}.`,
    `RSS ratio (peak under load, server / floor): ${times(report.rss.ratio)} (${megabytes(report.rss.server)} MB / ${megabytes(report.rss.floor)} MB).`,
    '',
    ...renderLoaded(report.loaded),
    ...renderFeed(report.feed),
    ...renderCompression(report.compression),
    '| target | measured | goal | met |',
    '|---|--:|---|---|',
    ...report.targets.map((t) => `| ${t.label} | ${times(t.value)} | ${t.goal} | ${verdict(t.met)} |`),
    '',
  );
  return lines.join('\n');
}
