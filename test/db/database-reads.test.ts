import { expect } from 'chai';
import { createReadReplicas } from '../../src/db/connection/read-replicas.ts';
import { createDatabaseReads } from '../../src/db/database-reads.ts';
import { compileRegistry } from '../../src/engine/compile/compile-registry.ts';
import type { Reads } from '../../src/engine/read/reads.ts';
import { createBrand, insert, resetToBrand } from '../support/fixtures.ts';
import { testDatabase } from '../support/test-database.ts';
import { secondConnection } from '../support/second-connection.ts';
import { seededRandom } from '../../tools/shared/seeded-random.ts';

const quiet = { warn() {}, info() {} };

describe('createDatabaseReads: the engine port on the database', () => {
  let reads: Reads;
  let sent: string[];
  const listen = (query: { sql: string }): void => {
    sent.push(query.sql);
  };
  before(async () => {
    const { db } = await testDatabase();
    reads = createDatabaseReads(createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: quiet }));
    db.on('query', listen);
  });
  after(async () => {
    (await testDatabase()).db.off('query', listen);
  });
  beforeEach(() => {
    sent = [];
  });

  /** The total of a family's list for a brand, as a first page asks it; and whether it was counted (not given back). */
  async function total(path: string, brandId: string, filters: Record<string, unknown> = {}): Promise<{ total: number; counted: boolean }> {
    const { registry } = await testDatabase();
    const plan = compileRegistry(registry).get(path)!.queries.count({ brandId, filters });
    const before = sent.filter((sql) => sql === plan.count.sql).length;
    const result = await reads.run((session) => session.count(`${path}:${brandId}:${JSON.stringify(filters)}`, plan));
    return { total: result, counted: sent.filter((sql) => sql === plan.count.sql).length > before };
  }

  it('runs plans, and gives a count back while none of the rows it reads changed', async () => {
    const { brand } = await resetToBrand('acme');
    const other = await createBrand('globex');
    await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
    expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 2, counted: true });
    expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 2, counted: false });
    // Other brands and other families written: the total holds.
    await insert('carton-sizes', other.id, [{ name: 'elsewhere' }]);
    await insert('colors', brand.id, [{ name: 'Red' }]);
    expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 2, counted: false });
    const rows = await reads.run((session) => session.rows({ sql: 'select slug from brands order by slug', bindings: [] }));
    expect(rows).to.deep.equal([{ slug: 'acme' }, { slug: 'globex' }]);
    expect(await reads.run((session) => session.mark()), 'one copy: nothing to keep in step').to.equal(null);
  });

  it('counts again after an insert, an update, a delete, a row moved in or out, of the brand', async () => {
    const { db } = await testDatabase();
    const { brand } = await resetToBrand('acme');
    const other = await createBrand('globex');
    const [a] = await insert('carton-sizes', brand.id, [{ name: 'A' }]);
    const [b] = await insert('carton-sizes', other.id, [{ name: 'B' }]);
    const steps: [string, () => Promise<unknown>, number][] = [
      ['insert', () => insert('carton-sizes', brand.id, [{ name: 'C' }]), 2],
      ['move in', () => db('carton_sizes').where({ id: b!.id }).update({ brand_id: brand.id }), 3],
      ['move out', () => db('carton_sizes').where({ id: b!.id }).update({ brand_id: other.id }), 2],
      ['delete', () => db('carton_sizes').where({ id: a!.id }).delete(), 1],
    ];
    await total('carton-sizes', brand.id);
    for (const [label, write, expected] of steps) {
      await write();
      expect(await total('carton-sizes', brand.id), label).to.deep.equal({ total: expected, counted: true });
      expect(await total('carton-sizes', brand.id), `${label}, asked again`).to.deep.equal({ total: expected, counted: false });
    }
    // An update that changes what a filter matches.
    await total('carton-sizes', brand.id, { name: 'C' });
    await db('carton_sizes').where({ brand_id: brand.id }).update({ name: 'D' });
    expect(await total('carton-sizes', brand.id, { name: 'C' })).to.deep.equal({ total: 0, counted: true });
  });

  it('counts again when a table a filter reads through a join changes', async () => {
    const { db } = await testDatabase();
    const { brand } = await resetToBrand('acme');
    const [p1, p2] = await insert('products', brand.id, [{ code: 'P1' }, { code: 'P2' }]);
    const [version] = await insert('product-versions', brand.id, [{ productId: p1!.id }]);
    await insert('measurement-tables', brand.id, [{ productVersionId: version!.id, name: 'M' }]);
    expect(await total('measurement-tables', brand.id, { productId: p1!.id })).to.deep.equal({ total: 1, counted: true });
    await db('product_versions').where({ id: version!.id }).update({ product_id: p2!.id });
    expect(await total('measurement-tables', brand.id, { productId: p1!.id })).to.deep.equal({ total: 0, counted: true });
  });

  // A transaction open across a count needs a second connection: Postgres only (PGlite has one).
  const onPostgres = process.env.DATABASE_URL ? it : null;
  onPostgres?.('counts again after a transaction that was open during the count commits', async () => {
    const { brand } = await resetToBrand('acme');
    await insert('carton-sizes', brand.id, [{ name: 'A' }]);
    const late = await secondConnection();
    try {
      await late.query('begin');
      await late.query('insert into carton_sizes (brand_id, name) values ($1, $2)', [brand.id, 'late']);
      expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 1, counted: true });
      expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 1, counted: false });
      await late.query('commit');
      expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 2, counted: true });
    } finally {
      await late.end();
    }
  });

  onPostgres?.('gives a count back after transactions open during the count end having written nothing of the brand (another brand\'s rows, a rollback)', async () => {
    const { brand } = await resetToBrand('acme');
    const other = await createBrand('globex');
    await insert('carton-sizes', brand.id, [{ name: 'A' }]);
    const elsewhere = await secondConnection();
    const undone = await secondConnection();
    try {
      await elsewhere.query('begin');
      await elsewhere.query('insert into carton_sizes (brand_id, name) values ($1, $2)', [other.id, 'other']);
      await undone.query('begin');
      await undone.query('insert into carton_sizes (brand_id, name) values ($1, $2)', [brand.id, 'undone']);
      // A transaction that begins after both and commits: the count's snapshot lists both as in progress
      // (its xmax is past the newest finished id; ids at or above it are in progress without being listed).
      const { db } = await testDatabase();
      await db.raw('select pg_current_xact_id()');
      expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 1, counted: true });
      await elsewhere.query('commit');
      await undone.query('rollback');
      expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 1, counted: false });
      expect(await total('carton-sizes', other.id)).to.deep.equal({ total: 1, counted: true });
    } finally {
      await elsewhere.end();
      await undone.end();
    }
  });

  onPostgres?.('gives a count back while a transaction stays open elsewhere (it holds every snapshot\'s xmin back), and counts again after a commit of the brand', async () => {
    const { brand } = await resetToBrand('acme');
    const holder = await secondConnection();
    try {
      await holder.query('begin');
      await holder.query('select pg_current_xact_id()');
      // Written after the holder took its id: at or above every later snapshot's xmin.
      await insert('carton-sizes', brand.id, [{ name: 'A' }]);
      expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 1, counted: true });
      expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 1, counted: false });
      await insert('carton-sizes', brand.id, [{ name: 'B' }]);
      expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 2, counted: true });
      expect(await total('carton-sizes', brand.id)).to.deep.equal({ total: 2, counted: false });
    } finally {
      await holder.end();
    }
  });
});

describe('createDatabaseReads: exact counts while real connections write (Postgres)', () => {
  const onPostgres = process.env.DATABASE_URL ? it : null;
  const WRITERS = 4;
  const COMMITS_EACH = 60;
  const READERS = 6;
  const SEED_ROWS = 50_000;

  onPostgres?.('every total lies between the commits acknowledged before its request and those sent before its answer', async function () {
    this.timeout(60_000);
    const { db, registry } = await testDatabase();
    const reads = createDatabaseReads(createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: quiet }));
    const { brand } = await resetToBrand('acme');
    const plan = compileRegistry(registry).get('carton-sizes')!.queries.count({ brandId: brand.id, filters: {} });
    // Rows enough that a count takes some milliseconds, so that commits land while one runs.
    await db.raw("insert into carton_sizes (brand_id, name) select ?, 'seed ' || i from generate_series(1, ?) i", [brand.id, SEED_ROWS]);
    // Inserts only, so the true total only grows: acknowledged ≤ total ≤ sent at every moment.
    let acknowledged = SEED_ROWS;
    let sent = SEED_ROWS;
    let writing = WRITERS;
    const random = seededRandom(7);
    const writer = async (): Promise<void> => {
      const client = await secondConnection();
      try {
        for (let i = 0; i < COMMITS_EACH; i++) {
          await client.query('begin');
          await client.query('insert into carton_sizes (brand_id, name) values ($1, $2)', [brand.id, `w${i}`]);
          // Some commits come late, after counts began while they were open; some writers pause, so counts get reused.
          if (random() < 0.3) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 15)));
          sent += 1;
          await client.query('commit');
          acknowledged += 1;
        }
      } finally {
        writing -= 1;
        await client.end();
      }
    };
    const answers: { low: number; total: number; high: number }[] = [];
    const reader = async (): Promise<void> => {
      while (writing > 0) {
        const low = acknowledged;
        const total = await reads.run((session) => session.count('carton-sizes:acme', plan));
        answers.push({ low, total, high: sent });
      }
    };
    await Promise.all([...Array.from({ length: WRITERS }, writer), ...Array.from({ length: READERS }, reader)]);
    const wrong = answers.filter(({ low, total, high }) => total < low || total > high);
    expect(wrong.slice(0, 5), `${wrong.length} of ${answers.length} totals outside [acknowledged before, sent by the answer]`).to.deep.equal([]);
    expect(answers.length, 'readers kept reading while the writers wrote').to.be.above(READERS * 10);
    expect(await reads.run((session) => session.count('carton-sizes:acme', plan))).to.equal(SEED_ROWS + WRITERS * COMMITS_EACH);
  });
});
