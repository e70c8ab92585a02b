import { randomInt, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createReadReplicas } from '../../../src/db/connection/read-replicas.ts';
import { createDatabaseReads } from '../../../src/db/database-reads.ts';
import { queryRows } from '../../../src/db/query/query-rows.ts';
import { createRowBatcher } from '../../../src/db/query/row-batcher.ts';
import { compileRegistry, type CompiledResource } from '../../../src/engine/compile/compile-registry.ts';
import type { SqlFragment } from '../../../src/engine/compile/sql-fragment.ts';
import { getRecord } from '../../../src/engine/read/read-records.ts';
import type { Row } from '../../../src/engine/read/reads.ts';
import { createBrand, insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

const quiet = { warn() {}, info() {} };

describe('createRowBatcher: gets arriving together share one statement', () => {
  let sent: string[];
  const listen = (query: { sql: string }): void => {
    sent.push(query.sql);
  };
  before(async () => {
    (await testDatabase()).db.on('query', listen);
  });
  after(async () => {
    (await testDatabase()).db.off('query', listen);
  });
  beforeEach(() => {
    sent = [];
  });

  it('gives each request of a batch exactly its own brand\'s record, across brands, ids and families (random mixes, one turn each)', async () => {
    const { db, registry } = await testDatabase();
    const families = compileRegistry(registry);
    const reads = createDatabaseReads(createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: quiet }));
    const { brand: acme } = await resetToBrand('acme');
    const globex = await createBrand('globex');
    const owned = [
      ...(await insert('carton-sizes', acme.id, [{ name: 'A1' }, { name: 'A2' }])).map((row) => ({ path: 'carton-sizes', brandId: acme.id, row })),
      ...(await insert('carton-sizes', globex.id, [{ name: 'G1' }])).map((row) => ({ path: 'carton-sizes', brandId: globex.id, row })),
      ...(await insert('colors', acme.id, [{ name: 'Red' }])).map((row) => ({ path: 'colors', brandId: acme.id, row })),
      ...(await insert('colors', globex.id, [{ name: 'Blue' }, { name: 'Green' }])).map((row) => ({ path: 'colors', brandId: globex.id, row })),
    ];
    const ids = [...owned.map(({ row }) => row.id as string), randomUUID()];
    const model = (path: string, brandId: string, id: string): string | null =>
      (owned.find((o) => o.path === path && o.brandId === brandId && o.row.id === id)?.row.name as string | undefined) ?? null;
    for (let round = 0; round < 6; round += 1) {
      sent = [];
      const asked = Array.from({ length: 4 + randomInt(20) }, () => ({
        path: ['carton-sizes', 'colors'][randomInt(2)]!,
        brandId: [acme.id, globex.id][randomInt(2)]!,
        id: ids[randomInt(ids.length)]!,
      }));
      // All asked in one turn: each family's first goes at once, the rest as one statement.
      const answers = await Promise.all(asked.map(({ path, brandId, id }) => {
        const family = families.get(path)!;
        return reads.run((session) => getRecord({ session, families, brandId, family, id, includes: [] }));
      }));
      asked.forEach(({ path, brandId, id }, i) => {
        expect(answers[i]?.name ?? null, `${path} ${id} for ${brandId === acme.id ? 'acme' : 'globex'}`).to.equal(model(path, brandId, id));
        if (answers[i]) expect(answers[i]).to.not.have.property('__batch');
      });
      for (const path of new Set(asked.map((a) => a.path))) {
        const family: CompiledResource = families.get(path)!;
        const batchSql = family.queries.one({ brandId: acme.id, id: ids[0]! }).batch!.sql;
        const times = asked.filter((a) => a.path === path).length;
        expect(sent.filter((sql) => sql === batchSql).length, `${path}: one statement for the ${times - 1} after the first (one alone runs as itself)`).to.equal(times > 2 ? 1 : 0);
      }
    }
  });

  it('fails only the requests a failing statement carried', async () => {
    const { db } = await testDatabase();
    const batcher = createRowBatcher((query) => queryRows(db, query));
    const good = (value: number): SqlFragment => ({ sql: 'select ?::int as "n"', bindings: [value], batch: { sql: 'select r."i" as "__batch", r."p1" as "n" from unnest(?::int[]) with ordinality as r(p1, i)' } });
    const broken = (value: number): SqlFragment => ({ sql: 'select ?::int as "n"', bindings: [value], batch: { sql: 'select no_such_column from unnest(?::int[]) as r(p1)' } });
    const settled = await Promise.allSettled([broken(1), good(2), broken(3), good(4), broken(5), good(6)].map((query) => batcher.rows(query)));
    const outcome = settled.map((s) => (s.status === 'fulfilled' ? (s.value as Row[]).map((row) => row.n) : 'failed'));
    // The broken family's first went alone (its own text is fine); its batch failed, and only its requests with it.
    expect(outcome).to.deep.equal([[1], [2], 'failed', [4], 'failed', [6]]);
  });

  it('sends a request that comes alone at once: its statement is issued before the call returns, with no timer', async () => {
    const issued: SqlFragment[] = [];
    const batcher = createRowBatcher(async (query) => {
      issued.push(query);
      return [{ n: query.bindings[0] }];
    });
    const query: SqlFragment = { sql: 'select ?', bindings: [1], batch: { sql: 'batched' } };
    const answer = batcher.rows(query);
    expect(issued).to.deep.equal([query]);
    expect(await answer).to.deep.equal([{ n: 1 }]);
    // A later turn's lone request goes at once too.
    await new Promise((resolve) => setImmediate(resolve));
    void batcher.rows({ ...query, bindings: [2] });
    expect(issued.map((q) => q.bindings)).to.deep.equal([[1], [2]]);
  });
});
