import type { CaseResult } from '../measure/case-result.ts';
import type { CaseName } from '../measure/cases.ts';
import { renderCompression } from './compression-report.ts';
import { renderFeed } from './feed-report.ts';
import { renderLoaded } from './loaded-report.ts';
import { ratio } from './ratio.ts';
import { TARGETS } from './targets.ts';
import type { FeedResults } from '../measure/measure-feed.ts';
import type { CompressionRow } from '../measure/measure-compression.ts';
import type { LoadedRun } from '../measure/measure-loaded.ts';
import { megabytes, milliseconds, thousands, times } from './format.ts';

export type { CaseResult } from '../measure/case-result.ts';
export type { RunContext, TargetCheck, CaseRatios, BenchReport } from './report-shape.ts';
import type { BenchReport, RunContext } from './report-shape.ts';

const peak = (values: readonly (number | null)[]): number | null => {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : Math.max(...known);
};

const NO_FEED: FeedResults = Object.freeze({ pages: null, batches: null, writers: null, indexWriters: null, indexBuild: null });

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
      return { label: target.label, goal: target.goal, value, met: value === null || Number.isNaN(value) ? null : target.met(value, partial) };
    }),
  };
}

const loads = (averages: readonly number[]): string => averages.map((n) => n.toFixed(2)).join(' / ');

/** The cases of the list questions (CONTRACT.md §8), which the floors answer with SQL written by hand. */
const LIST_QUESTION_CASES: readonly CaseName[] = ['first-page-big', 'newest-first-page', 'newest-page-2000', 'code-page-2000', 'any-of-statuses', 'created-month', 'counts-status'];

/** How the floors answer the list questions, under the table. */
const LIST_QUESTIONS_NOTE: readonly string[] = [
  'The list questions (CONTRACT.md §8: `first-page-big` to `counts-status`, and `newest-page-2000`) are asked of the floors in SQL written by hand '
    + '(bench/floors/floor-questions.ts), not the engine\'s statements: `ORDER BY` the field, `created_at`, `id` (descending for newest first), '
    + '`status = any($n)`, `created_at >= $n and created_at < $n` (sent unprepared on both floors, as the server plans a range per request), '
    + 'the page and its `count(*)` in parallel, and counts by `GROUP BY status`. The big brand\'s first page in the default order is asked the same way, '
    + 'as what newest first is held to. Deep pages: newest first after the row before (keyset, and a count, as the default order\'s floor pages count); '
    + 'by code at its `OFFSET`, the walk\'s total carried by the position as the server\'s cursor carries it, so that page is the `OFFSET` query alone.',
];
const verdict = (met: boolean | null): string => (met === null ? 'not run' : met ? 'yes' : '**no**');

/** The run as Markdown: what was run, one table of the cases, one of the targets. */
export function renderMarkdown(report: BenchReport): string {
  const { scale, load, machine } = report;
  const rows = Object.entries(load.rows).map(([table, count]) => `${table} ${thousands(count)}`).join(', ');
  const lines = [
    `## Benchmark: ${thousands(scale.products)} products, ${thousands(scale.brands)} brands (the big one ${thousands(scale.bigBrand)})`,
    '',
    `- Data: ${load.reused ? 'kept from an earlier run, which loaded it' : 'loaded'} in ${load.seconds.toFixed(1)} s${load.cpuSeconds === null ? '' : ` (${load.cpuSeconds.toFixed(1)} s of Postgres CPU)`}: ${rows}.`,
    `- Run ${report.startedAt}: ${report.durationSeconds} s per case and server after ${report.warmupSeconds} s of warm-up, ${report.connections} connections${report.smoke ? `, ${report.smoke.requests} requests a run (a smoke run: its rates mean nothing)` : ''}, ${report.poolMax} Postgres connections per server; each side's time in two halves run in mirrored order (A B C C B A over the server, the floor and the prepared floor; cases measured together interleaved: the get with the unrestricted and the restricted key; page 2 and the deep pages, in the default order and newest first; the big brand's first page in both orders).`,
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
  if (report.cases.some((c) => LIST_QUESTION_CASES.includes(c.name))) lines.push('', ...LIST_QUESTIONS_NOTE);
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
