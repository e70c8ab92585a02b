import type { LoadedRun } from '../measure/measure-loaded.ts';
import type { Measurement } from '../measure/measure.ts';
import { WRITE_LOADS, type WriteLoadName } from '../measure/write-loads.ts';
import { thousands } from './format.ts';

const milliseconds = (n: number): string => (Number.isNaN(n) ? 'n/a' : n < 10 ? n.toFixed(2) : n.toFixed(1));
const times = (n: number): string => (Number.isNaN(n) ? 'n/a' : n === Number.POSITIVE_INFINITY ? '∞ (none answered)' : `${n.toFixed(2)}×`);
const side = (m: Measurement): string => `${thousands(m.requestsPerSecond)} | ${milliseconds(m.p50Ms)} | ${milliseconds(m.p99Ms)}`;

/** The lowest server / floor ratio of the big brand's filtered first page under a load, over its connection counts; null when not run. */
export function worstBigFilterRatio(loaded: readonly LoadedRun[], load: WriteLoadName): number | null {
  const run = loaded.find((candidate) => candidate.load === load);
  const ratios = run?.cases.filter((c) => c.name === 'first-page-big-filter').map((c) => c.requestsRatio) ?? [];
  // NaN (no side answered) makes the worst NaN: a measurement that failed is judged as not run, never as met.
  return ratios.length === 0 ? null : ratios.some(Number.isNaN) ? Number.NaN : Math.min(...ratios);
}

/** The write loads' part of the report, as Markdown lines; none when no load ran. */
export function renderLoaded(loaded: readonly LoadedRun[]): string[] {
  const lines: string[] = [];
  for (const run of loaded) {
    lines.push(
      `### Under a write load: ${WRITE_LOADS[run.load].title} (achieved ${thousands(run.writesPerSecond)}/s)`, '',
      `Each case at ${[...new Set(run.cases.map((c) => c.connections))].join(', ')} connections, the server and both floors in mirrored runs while pgbench commits single-row updates of products.`, '',
      '| case | connections | server req/s | p50 ms | p99 ms | floor req/s | p50 ms | p99 ms | prepared floor req/s | p50 ms | p99 ms | vs floor | vs prepared floor |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
      ...run.cases.map((c) => `| ${c.title} | ${c.connections} | ${side(c.server)} | ${side(c.floor)} | ${side(c.preparedFloor)} | ${times(c.requestsRatio)} | ${times(c.preparedRatio)} |`),
      '',
    );
  }
  return lines;
}
