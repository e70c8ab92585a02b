import type { CaseName } from '../measure/cases.ts';
import type { LoadedRun } from '../measure/measure-loaded.ts';
import type { Measurement } from '../measure/measure.ts';
import { WRITE_LOADS, type WriteLoadName } from '../measure/write-loads.ts';
import { thousands } from './format.ts';

const milliseconds = (n: number): string => (Number.isNaN(n) ? 'n/a' : n < 10 ? n.toFixed(2) : n.toFixed(1));
const times = (n: number): string => (Number.isNaN(n) ? 'n/a' : n === Number.POSITIVE_INFINITY ? '∞ (none answered)' : `${n.toFixed(2)}×`);
const side = (m: Measurement): string => `${thousands(m.requestsPerSecond)} | ${milliseconds(m.p50Ms)} | ${milliseconds(m.p99Ms)}`;

/**
 * The lowest ratio of a case under a load, over its connection counts: the
 * server's req/s over the floor's (`requestsRatio`) or the prepared floor's
 * (`preparedRatio`); null when not run.
 */
export function worstLoadedRatio({ loaded, load, name, which = 'requestsRatio' }: {
  loaded: readonly LoadedRun[];
  load: WriteLoadName;
  name: CaseName;
  which?: 'requestsRatio' | 'preparedRatio';
}): number | null {
  const run = loaded.find((candidate) => candidate.load === load);
  const ratios = run?.cases.filter((c) => c.name === name).map((c) => c[which]) ?? [];
  // NaN (no side answered) makes the worst NaN: a measurement that failed is judged as not run, never as met.
  return ratios.length === 0 ? null : ratios.some(Number.isNaN) ? Number.NaN : Math.min(...ratios);
}

/** The lowest server / floor ratio of the big brand's filtered first page under a load, over its connection counts; null when not run. */
export function worstBigFilterRatio(loaded: readonly LoadedRun[], load: WriteLoadName): number | null {
  return worstLoadedRatio({ loaded, load, name: 'first-page-big-filter' });
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
    const fresh = run.freshCounts;
    if (fresh) {
      lines.push(
        `Whether the server's counts were fresh under this load, in a run of the server alone after the measured ones (${fresh.seconds.toFixed(0)} s at ${fresh.connections} connections): ${thousands(fresh.answers)} answers`
          + (fresh.sources
            ? `; the server's metrics: ${thousands(fresh.sources.counted)} from a count started for them, ${thousands(fresh.sources.running)} from a count running when they came (nothing written since it began), ${thousands(fresh.sources.remembered)} from the remembered count`
            : '')
          + `; Postgres's statistics (rows the products table's scans read over the brand's products, scans of its sync index): ${thousands(fresh.countsRun)} counts after ${thousands(fresh.checks)} probes. `
          + `**${Number.isNaN(fresh.freshShare) ? 'n/a' : `${(fresh.freshShare * 100).toFixed(0)} %`} of the answers from a count run during the request.** The floors count on every request.`,
        '',
      );
    }
  }
  return lines;
}
