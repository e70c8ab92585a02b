import { thousands } from './format.ts';

/**
 * The growth table and plot (issue 17): the same cases measured at several
 * data sizes, one `npm run bench` result (its .json) per size, side by side.
 * Pure: reads parsed results, returns Markdown and SVG text.
 *
 * Each column is one size; each row one case, as the server's p50 latency
 * and req/s, with the unprepared floor's p50 on the cases a floor answers
 * (the floor's cost is what grows when a count is not remembered). The
 * export is the changes feed's full sync of the big brand (`npm run export
 * --sync-state` reads exactly that), as records per second: the big brand is
 * a fifth of the products, so it grows with them.
 */

/** The parts of a bench result (`BenchReport` as written to .json) the growth table reads. */
export interface GrowthInput {
  readonly scale: { readonly products: number; readonly bigBrand: number };
  readonly cases: readonly { readonly name: string; readonly server: Sample; readonly floor: Sample }[];
  readonly feed?: {
    readonly pages?: { readonly changes: Sample } | null;
    readonly batches?: { readonly fullSync: { readonly items: number; readonly seconds: number } } | null;
  } | null;
}

interface Sample {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
}

/** One row of the table: a case's server latency and rate at each size (null: not measured there). */
export interface GrowthRow {
  readonly label: string;
  readonly server: readonly (Sample | null)[];
  /** The unprepared floor's figures on the same case, where the bench has a floor for it. */
  readonly floor: readonly (Sample | null)[] | null;
}

/** An export's figures at one size: records of the big brand, seconds, records per second. */
export interface ExportPoint {
  readonly records: number;
  readonly seconds: number;
}

export interface Growth {
  readonly sizes: readonly number[];
  readonly rows: readonly GrowthRow[];
  readonly exports: readonly (ExportPoint | null)[];
}

const LIST_CASES: readonly (readonly [string, string])[] = [
  ['get-by-id', 'get by id'],
  ['first-page-small', 'first page, small brand'],
  ['first-page-big-filter', 'first page, big brand, filtered'],
  ['page-2000', 'deep page (2000), big brand'],
];

/** The results, smallest size first, as rows. */
export function growthOf(results: readonly GrowthInput[]): Growth {
  const sorted = [...results].sort((a, b) => a.scale.products - b.scale.products);
  const sample = (result: GrowthInput, name: string, side: 'server' | 'floor'): Sample | null =>
    result.cases.find((c) => c.name === name)?.[side] ?? null;
  const rows: GrowthRow[] = LIST_CASES.map(([name, label]) => ({
    label,
    server: sorted.map((result) => sample(result, name, 'server')),
    floor: sorted.map((result) => sample(result, name, 'floor')),
  }));
  rows.push({ label: 'changes page of 100, big brand', server: sorted.map((result) => result.feed?.pages?.changes ?? null), floor: null });
  const exports = sorted.map((result) => {
    const full = result.feed?.batches?.fullSync;
    return full ? { records: full.items, seconds: full.seconds } : null;
  });
  return { sizes: sorted.map((result) => result.scale.products), rows, exports };
}

const cell = (s: Sample | null): string => (s === null ? 'n/a' : `${s.p50Ms.toFixed(1)} ms, ${thousands(s.requestsPerSecond)}/s`);

/** The table: one column per size, p50 and req/s per cell. */
export function growthTable(growth: Growth): string {
  const header = `| case | ${growth.sizes.map((size) => `${thousands(size)} products`).join(' | ')} |`;
  const rule = `|---|${growth.sizes.map(() => '--:').join('|')}|`;
  const lines = [header, rule];
  for (const row of growth.rows) {
    lines.push(`| ${row.label} (server) | ${row.server.map(cell).join(' | ')} |`);
    if (row.floor) lines.push(`| ${row.label} (floor) | ${row.floor.map(cell).join(' | ')} |`);
  }
  const exportCell = (point: ExportPoint | null): string =>
    point === null ? 'n/a' : `${thousands(point.records)} in ${point.seconds.toFixed(1)} s, ${thousands(point.records / point.seconds)}/s`;
  lines.push(`| export: full sync of the big brand | ${growth.exports.map(exportCell).join(' | ')} |`);
  return lines.join('\n');
}
