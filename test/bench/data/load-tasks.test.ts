import { expect } from 'chai';
import { LOADED_TABLES, type LoadedTable } from '../../../bench/data/data-shape.ts';
import { loadTasks, type LoadLane } from '../../../bench/data/load-tasks.ts';
import { runInLanes } from '../../../bench/data/run-in-lanes.ts';

/** A lane that keeps the statements it is given and answers each with one row. */
function recordingLane(ran: string[]): LoadLane {
  return { query: async (sql) => (ran.push(sql), { rowCount: 1 }) };
}

const statements = Object.fromEntries(LOADED_TABLES.map((table) => [table, `insert ${table}`])) as Record<LoadedTable, string>;
const expected = Object.fromEntries(LOADED_TABLES.map((table, i) => [table, (i + 1) * 10])) as Record<LoadedTable, number>;
const indexes = [
  { table: 'products', name: 'products_code', definition: 'create index products_code on products (code)' },
  { table: 'skus', name: 'skus_code', definition: 'create index skus_code on skus (code)' },
  { table: 'products', name: 'products_name_trgm', definition: 'create index products_name_trgm on products using gin (name gin_trgm_ops)' },
];

describe('loadTasks', () => {
  it('inserts biggest first, builds the dearest indexes first once their table is in, and vacuums each table after its indexes', () => {
    const tasks = loadTasks({ statements, indexes, expected, rows: {}, log: () => {} });
    const biggestFirst = [...LOADED_TABLES].reverse();
    expect(tasks.map((task) => task.name)).to.deep.equal([
      ...biggestFirst.map((table) => `insert ${table}`),
      // skus (70 rows) beats products (50), but a trigram index counts double (100).
      'index products_name_trgm', 'index skus_code', 'index products_code',
      ...biggestFirst.map((table) => `vacuum ${table}`),
    ]);
    expect(tasks.find((task) => task.name === 'index skus_code')!.after).to.deep.equal(['insert skus']);
    expect(tasks.find((task) => task.name === 'vacuum products')!.after).to.deep.equal(['insert products', 'index products_code', 'index products_name_trgm']);
    expect(tasks.find((task) => task.name === 'vacuum brands')!.after).to.deep.equal(['insert brands']);
  });

  it('runs every statement once on the lanes, and keeps each table\'s inserted rows', async () => {
    const rows: Record<string, number> = {};
    const ran: string[] = [];
    await runInLanes({ lanes: [recordingLane(ran), recordingLane(ran)], tasks: loadTasks({ statements, indexes, expected, rows, log: () => {} }) });
    expect(ran).to.have.members([
      ...LOADED_TABLES.map((table) => `insert ${table}`),
      ...indexes.map((index) => index.definition),
      ...LOADED_TABLES.map((table) => `vacuum (analyze) "${table}"`),
    ]);
    expect(rows).to.deep.equal(Object.fromEntries(LOADED_TABLES.map((table) => [table, 1])));
  });
});
