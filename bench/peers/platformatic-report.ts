import { megabytes, milliseconds, thousands, times } from '../report/format.ts';
import type { Measurement } from '../measure/measure.ts';
import { PLATFORMATIC_SIDES, type PlatformaticSide } from './platformatic-cases.ts';
import type { PlatformaticCaseResult } from './platformatic-measure.ts';
import type { Scale } from '../data/scale.ts';

/** How, where and on what the comparison ran. */
export interface PlatformaticContext {
  readonly scale: Scale;
  readonly startedAt: string;
  /** Seconds of load per case and side, in two halves. */
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Postgres connections of each side. */
  readonly poolMax: number;
  readonly platformaticVersion: string;
  /** The Node all three sides ran on. */
  readonly node: string;
  readonly machine: {
    readonly cpus: number;
    readonly loadAverage: { readonly before: readonly number[]; readonly after: readonly number[] };
    readonly postgres: string;
  };
}

/** A case's ratios: each side against the prepared floor, and the server against Platformatic. */
export interface PlatformaticRatios {
  /** req/s over the prepared floor's. */
  readonly requestsVsFloor: Readonly<Record<PlatformaticSide, number | null>>;
  /** CPU ms/req over the prepared floor's. */
  readonly cpuVsFloor: Readonly<Record<PlatformaticSide, number | null>>;
  /** Server over Platformatic: req/s (above 1: the server is faster), p50 and CPU ms/req (below 1: the server is faster). */
  readonly serverVsPlatformatic: { readonly requests: number | null; readonly p50: number | null; readonly cpu: number | null };
}

export interface PlatformaticReport extends PlatformaticContext {
  readonly cases: readonly (PlatformaticCaseResult & PlatformaticRatios)[];
  /** Issue 17: the server's req/s above Platformatic's on every case measured; null when none was. */
  readonly fasterOnEveryCase: boolean | null;
}

const ratio = (a: number | null, b: number | null): number | null =>
  a === null || b === null || b === 0 || !Number.isFinite(a) || !Number.isFinite(b) ? null : a / b;

function ratiosOf(measured: Readonly<Record<PlatformaticSide, Measurement>>): PlatformaticRatios {
  const floor = measured.preparedFloor;
  const bySide = (of: (m: Measurement) => number | null): Record<PlatformaticSide, number | null> =>
    Object.fromEntries(PLATFORMATIC_SIDES.map((side) => [side, ratio(of(measured[side]), of(floor))])) as Record<PlatformaticSide, number | null>;
  const { server, platformatic } = measured;
  return {
    requestsVsFloor: bySide((m) => m.requestsPerSecond),
    cpuVsFloor: bySide((m) => m.cpuMsPerRequest),
    serverVsPlatformatic: {
      requests: ratio(server.requestsPerSecond, platformatic.requestsPerSecond),
      p50: ratio(server.p50Ms, platformatic.p50Ms),
      cpu: ratio(server.cpuMsPerRequest, platformatic.cpuMsPerRequest),
    },
  };
}

export function summarizePlatformatic({ context, results }: { context: PlatformaticContext; results: readonly PlatformaticCaseResult[] }): PlatformaticReport {
  const cases = results.map((result) => ({ ...result, ...ratiosOf(result.measured) }));
  const known = cases.map((c) => c.serverVsPlatformatic.requests).filter((r): r is number => r !== null);
  return { ...context, cases, fasterOnEveryCase: known.length === 0 || known.length < cases.length ? null : known.every((r) => r > 1) };
}

const SIDE_TITLES: Readonly<Record<PlatformaticSide, string>> = { server: 'server', preparedFloor: 'prepared floor', platformatic: 'Platformatic DB' };
const loads = (averages: readonly number[]): string => averages.map((n) => n.toFixed(2)).join(' / ');
const cpu = (m: Measurement): string => (m.cpuMsPerRequest === null ? 'n/a' : m.cpuMsPerRequest.toFixed(3));

/**
 * What this comparison leaves out or cannot ask Platformatic DB as the server
 * is asked, for the report's readers.
 */
export const NOT_COMPARED = [
  '`include=skus`: Platformatic DB\'s lists embed no related records (one `/products/{id}/…` request more per product), so the case is left out.',
  "The server's product carries its category's name (`category`, joined from `categories`); Platformatic DB's REST API cannot join it, and is asked for `categoryId` in its place (`fields=`, the server's other columns).",
  "Platformatic DB's get is by id alone (`/products/{id}`); the server's checks the product's brand too.",
  "Platformatic DB's own cursor (`X-Start-After`) carries timestamps in milliseconds: on rows whose `created_at` has microseconds (the small brand's) the next page repeats the last row of the page before. The cursor case gives it the exact position; the big brand's timestamps are whole milliseconds, where the two agree.",
  'Platformatic DB prints timestamps in milliseconds, the server in microseconds: records are compared by id and order only.',
  "Platformatic DB counts a first page's total on every request (`totalCount=true`); the server may reuse a count while the brand's products have not changed.",
  "Newest first is measured on the deep page against Platformatic DB's own cursor in that order (`orderby.createdAt=desc&orderby.id=desc&startAfter=`, which it answers with `(created_at, id) < (...)`); any of (`where.status.in=`) and the month (`where.createdAt.gte=` with `where.createdAt.lt=`) on the first page with its total.",
  "Counts by value are not compared: Platformatic DB's REST API has no `GROUP BY` (the bench holds them to its prepared floor's).",
] as const;

function sideRows(c: PlatformaticReport['cases'][number]): string[] {
  return PLATFORMATIC_SIDES.map((side) => {
    const m = c.measured[side];
    const vsFloor = side === 'preparedFloor' ? ['', ''] : [times(c.requestsVsFloor[side]), times(c.cpuVsFloor[side])];
    return `| ${side === PLATFORMATIC_SIDES[0] ? c.title : ''} | ${SIDE_TITLES[side]} | ${thousands(m.requestsPerSecond)} | ${milliseconds(m.p50Ms)} | ${milliseconds(m.p99Ms)} | ${m.errors + m.non2xx} | ${megabytes(m.peakRssBytes)} | ${cpu(m)} | ${vsFloor.join(' | ')} |`;
  });
}

/** The comparison as Markdown: what ran, the three sides per case, the server against Platformatic DB, what was not compared. */
export function renderPlatformatic(report: PlatformaticReport): string {
  const { scale, machine } = report;
  const half = report.durationSeconds / 2;
  const verdict = report.fasterOnEveryCase === null ? 'not known' : report.fasterOnEveryCase ? 'yes' : '**no**';
  return [
    `## Against Platformatic DB ${report.platformaticVersion}: ${thousands(scale.products)} products, ${thousands(scale.brands)} brands (the big one ${thousands(scale.bigBrand)})`,
    '',
    `- Run ${report.startedAt}: ${report.durationSeconds} s per case and side, in two halves of ${half} s run in mirrored order (A B C C B A, the first side turning from case to case), after ${report.warmupSeconds} s of warm-up; ${report.connections} connections; ${report.poolMax} Postgres connections per side.`,
    `- Sides: the server (auth, rate limits counted in Redis); the floor preparing its SQL (\`FLOOR_PREPARED=1\`); Platformatic DB (REST only, no auth, its capability alone in one process, without the Watt runtime). All three on Node ${report.node}.`,
    `- Machine: ${machine.cpus} CPUs, load average ${loads(machine.loadAverage.before)} at the start and ${loads(machine.loadAverage.after)} at the end; ${machine.postgres}. CPU ms/req: the side's process's own CPU time per response.`,
    '',
    '| case | on | req/s | p50 ms | p99 ms | errors | peak RSS MB | CPU ms/req | req/s vs prepared floor | CPU vs prepared floor |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...report.cases.flatMap(sideRows),
    '',
    '| case | server / Platformatic req/s | server / Platformatic p50 | server / Platformatic CPU ms/req | same records |',
    '|---|--:|--:|--:|---|',
    ...report.cases.map((c) => {
      const same = c.differences.length === 0 ? 'yes' : `**no**: ${c.differences.join('; ')}`;
      const { requests, p50, cpu: cpuRatio } = c.serverVsPlatformatic;
      return `| ${c.title} | ${requests !== null && requests < 1 ? `**${times(requests)}**` : times(requests)} | ${times(p50)} | ${times(cpuRatio)} | ${same} |`;
    }),
    '',
    `Faster than Platformatic DB on every case (req/s, issue 17): ${verdict}.`,
    '',
    'Not compared, or compared with a caveat:',
    '',
    ...NOT_COMPARED.map((line) => `- ${line}`),
    '',
  ].join('\n');
}
