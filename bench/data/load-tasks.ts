import { LOADED_TABLES, type LoadedTable } from './data-shape.ts';
import type { LaneTask } from './run-in-lanes.ts';

/** A session that runs one statement at a time. */
export interface LoadLane {
  query(sql: string): Promise<{ rowCount: number | null }>;
}

/** An index of a loaded table that is dropped before the load and built again after it. */
export interface IndexDefinition {
  readonly table: string;
  readonly name: string;
  readonly definition: string;
}

/**
 * The load as lane tasks: every table's insert (biggest first, so the lanes
 * finish close together), every index once its table is in (trigram ones
 * first: they take longest and use one core each), and every table's vacuum
 * once its rows and indexes are. Each insert's row count goes into `rows`;
 * a step that takes a second or more is logged.
 */
export function loadTasks<Lane extends LoadLane>({ statements, indexes, expected, rows, log }: {
  statements: Readonly<Record<LoadedTable, string>>;
  indexes: readonly IndexDefinition[];
  expected: Readonly<Record<LoadedTable, number>>;
  rows: Record<string, number>;
  log: (message: string) => void;
}): LaneTask<Lane>[] {
  // Progress for the steps that take a while; the many small ones would drown it.
  const timed = (name: string, run: (lane: Lane) => Promise<void>): ((lane: Lane) => Promise<void>) => async (lane) => {
    const at = performance.now();
    await run(lane);
    if (performance.now() - at >= 1000) log(`  ${name}: ${((performance.now() - at) / 1000).toFixed(1)} s`);
  };
  const byRows = [...LOADED_TABLES].sort((a, b) => expected[b] - expected[a]);
  return [
    ...byRows.map((table) => ({
      name: `insert ${table}`,
      run: timed(`insert ${table}`, async (lane) => {
        rows[table] = (await lane.query(statements[table])).rowCount ?? 0;
      }),
    })),
    ...[...indexes].sort((a, b) => indexCost(b, expected) - indexCost(a, expected)).map((index) => ({
      name: `index ${index.name}`,
      after: [`insert ${index.table}`],
      run: timed(`index ${index.name}`, async (lane) => {
        await lane.query(index.definition);
      }),
    })),
    ...byRows.map((table) => ({
      name: `vacuum ${table}`,
      after: [`insert ${table}`, ...indexes.filter((index) => index.table === table).map((index) => `index ${index.name}`)],
      run: timed(`vacuum analyze ${table}`, async (lane) => {
        await lane.query(`vacuum (analyze) "${table}"`);
      }),
    })),
  ];
}

/** Rough cost of building an index: its table's rows, doubled for a trigram GIN (one core, several entries per row). */
function indexCost(index: IndexDefinition, rows: Readonly<Record<string, number>>): number {
  return (rows[index.table] ?? 0) * (index.definition.includes('gin_trgm_ops') ? 2 : 1);
}
