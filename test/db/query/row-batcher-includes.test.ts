import { randomInt, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createReadReplicas } from '../../../src/db/connection/read-replicas.ts';
import { createDatabaseReads } from '../../../src/db/database-reads.ts';
import { queryRows } from '../../../src/db/query/query-rows.ts';
import { createRowBatcher } from '../../../src/db/query/row-batcher.ts';
import { arrayLiteral } from '../../../src/engine/compile/batch-by-row.ts';
import { compileRegistry, type CompiledResource } from '../../../src/engine/compile/compile-registry.ts';
import type { SqlFragment } from '../../../src/engine/compile/sql-fragment.ts';
import { createCursorCodec } from '../../../src/engine/request/cursor-codec.ts';
import { getRecord, listRecords, openWalk } from '../../../src/engine/read/read-records.ts';
import type { ReadSession, Row } from '../../../src/engine/read/reads.ts';
import { createBrand, insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

const quiet = { warn() {}, info() {} };
const pick = <T>(from: readonly T[]): T => from[randomInt(from.length)]!;
/** Lets the turn of the last request end, so the next requests start a turn of their own. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const some = <T>(from: readonly T[], most: number): T[] => Array.from({ length: 1 + randomInt(most) }, () => pick(from));

/** Two brands with products, colours, colourways, SKUs and units (shared ones too); colourways point at a colour of either brand. */
async function plant(): Promise<{ brands: string[]; ids: Record<string, string[]> }> {
  const { brand: acme } = await resetToBrand('acme');
  const globex = await createBrand('globex');
  const ids: Record<string, string[]> = { products: [], colors: [], options: [], units: [] };
  await insert('units-of-measure', null, [{ code: 'pc', name: 'Piece' }]).then((rows) => ids.units!.push(...rows.map((r) => r.id as string)));
  for (const brand of [acme.id, globex.id]) {
    ids.units!.push(...(await insert('units-of-measure', brand, [{ code: 'm', name: `Metre ${brand}` }])).map((r) => r.id as string));
    ids.colors!.push(...(await insert('colors', brand, [{ name: 'Red' }, { name: 'Blue' }])).map((r) => r.id as string));
    for (const product of await insert('products', brand, Array.from({ length: 3 }, (_, i) => ({ code: `P${i}`, name: `Product ${i}` })))) {
      ids.products!.push(product.id as string);
      const options = await insert('product-options', brand, Array.from({ length: randomInt(3) }, (_, i) => ({ productId: product.id, colorId: pick(ids.colors!), code: `C${i}` })));
      ids.options!.push(...options.map((r) => r.id as string));
      const skus = Array.from({ length: randomInt(6) }, (_, i) => ({ productId: product.id, productOptionId: options.length > 0 ? pick(options).id : null, code: `S"${i}\\` }));
      await insert('skus', brand, skus);
    }
  }
  return { brands: [acme.id, globex.id], ids };
}

type Ask = { what: string; read: (session: ReadSession) => Promise<unknown> };

/** An include query as loadIncludes asks it, or with another limit (so each request's own limit and order are checked). */
function matchingAsk(families: ReadonlyMap<string, CompiledResource>, { path, field, brandId, values, limit }: { path: string; field: string; brandId: string; values: unknown[]; limit: number }): Ask {
  const { queries } = families.get(path)!;
  return { what: `${path}.${field} ${values.length} keys, limit ${limit}`, read: (session) => session.rows(queries.matching({ brandId, field, values, limit })).then(queries.decode) };
}

function randomAsks({ families, brands, ids }: { families: ReadonlyMap<string, CompiledResource>; brands: string[]; ids: Record<string, string[]> }): Ask[] {
  const cursors = createCursorCodec('c'.repeat(32));
  const keys = (name: string): string[] => [...ids[name]!, randomUUID()];
  const includesOf = (path: string): CompiledResource['resource']['includes'] => families.get(path)!.resource.includes.filter((i) => ['skus', 'options', 'product', 'color'].includes(i.name));
  const kinds: Array<() => Ask> = [
    () => matchingAsk(families, { path: 'skus', field: 'productId', brandId: pick(brands), values: some(keys('products'), 4), limit: 1 + randomInt(6) }),
    () => matchingAsk(families, { path: 'skus', field: 'productOptionId', brandId: pick(brands), values: some(keys('options'), 3), limit: 5001 }),
    () => matchingAsk(families, { path: 'skus', field: 'code', brandId: pick(brands), values: some(['S"0\\', 'S"1\\', 'S"2\\', 'nope'], 2), limit: 1 + randomInt(6) }),
    () => matchingAsk(families, { path: 'product-options', field: 'productId', brandId: pick(brands), values: some(keys('products'), 3), limit: 5001 }),
    () => matchingAsk(families, { path: 'units-of-measure', field: 'id', brandId: pick(brands), values: some(keys('units'), 3), limit: 5001 }),
    () => {
      const [brandId, id, family] = [pick(brands), pick(keys(ids.options!.length > 0 && randomInt(2) === 0 ? 'options' : 'products')), families.get(randomInt(2) ? 'products' : 'product-options')!];
      return { what: `get ${family.resource.path} with includes`, read: (session) => getRecord({ session, families, brandId, family, id, includes: includesOf(family.resource.path) }) };
    },
    () => {
      const [brandId, family] = [pick(brands), families.get(pick(['products', 'product-options']))!];
      const request = { limit: 1 + randomInt(3), cursor: null, sort: family.sorts.get('createdAt')!, filters: {}, includes: includesOf(family.resource.path), fields: null };
      const walk = openWalk({ cursors, brandId, family, request });
      return { what: `page of ${family.resource.path} with includes`, read: (session) => listRecords({ session, families, brandId, family, request, walk, cursors }) };
    },
  ];
  return Array.from({ length: 6 + randomInt(20) }, () => pick(kinds)());
}

describe('createRowBatcher: the include queries of requests arriving together share one statement', () => {
  it('gives each request exactly what it gets alone, across brands, keys, families, fields, limits, gets and pages (random mixes, one turn each)', async () => {
    const { db, registry } = await testDatabase();
    const families = compileRegistry(registry);
    const statements: string[] = [];
    const reads = createDatabaseReads(createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: quiet }), {
      trace: (plan, run) => {
        statements.push(plan.sql);
        return run();
      },
    });
    const planted = await plant();
    for (let round = 0; round < 6; round += 1) {
      const asks = randomAsks({ families, ...planted });
      const alone: unknown[] = [];
      for (const ask of asks) alone.push(await reads.run(ask.read));
      await nextTurn();
      statements.length = 0;
      const together = await Promise.all(asks.map((ask) => reads.run(ask.read)));
      asks.forEach((ask, i) => expect(together[i], ask.what).to.deep.equal(alone[i]));
      const direct = asks.filter((ask) => ask.what.startsWith('skus.productId'));
      if (direct.length > 2) {
        const batchSql = families.get('skus')!.queries.matching({ brandId: planted.brands[0]!, field: 'productId', values: [randomUUID()], limit: 1 }).batch!.sql;
        expect(statements.filter((sql) => sql === batchSql), 'the SKU includes of one turn after the first went as one statement').to.have.length.at.least(1);
      }
    }
  });

  it('sends one statement per family and field for the include queries of one turn, whatever their number', async () => {
    const { db, registry } = await testDatabase();
    const families = compileRegistry(registry);
    const { brands, ids } = await plant();
    const statements: SqlFragment[] = [];
    const batcher = createRowBatcher((query) => {
      statements.push(query);
      return queryRows(db, query);
    });
    const session: ReadSession = { rows: (query) => batcher.rows(query), count: () => Promise.reject(new Error('no count')), counts: () => Promise.reject(new Error('no counts')), mark: async () => null };
    const asks = [
      ...Array.from({ length: 7 }, () => matchingAsk(families, { path: 'skus', field: 'productId', brandId: pick(brands), values: some(ids.products!, 4), limit: 1 + randomInt(4) })),
      ...Array.from({ length: 5 }, () => matchingAsk(families, { path: 'product-options', field: 'productId', brandId: pick(brands), values: some(ids.products!, 4), limit: 5001 })),
      matchingAsk(families, { path: 'colors', field: 'id', brandId: brands[0]!, values: ids.colors!, limit: 5001 }),
    ];
    const alone: unknown[] = [];
    for (const ask of asks) alone.push(await ask.read(session));
    await nextTurn();
    statements.length = 0;
    const together = await Promise.all(asks.map((ask) => ask.read(session)));
    asks.forEach((ask, i) => expect(together[i], ask.what).to.deep.equal(alone[i]));
    // Each family's first at once, alone; its six and four others as one statement each; the colours alone.
    expect(statements.map((query) => (query.sql.includes('cross join lateral') ? `${query.label!.family} batch of ${(query.bindings[0] as unknown[]).length}` : `${query.label!.family} alone`)))
      .to.deep.equal(['skus alone', 'product-options alone', 'colors alone', 'skus batch of 6', 'product-options batch of 4']);
  });

  it('fails only the requests a failing statement carried; a request whose keys cannot travel runs, and fails, alone', async () => {
    const { db, registry } = await testDatabase();
    const families = compileRegistry(registry);
    const { brands, ids } = await plant();
    const failing = families.get('product-options')!.queries.matching({ brandId: brands[0]!, field: 'productId', values: [ids.products![0]!], limit: 1 }).batch!.sql;
    const batcher = createRowBatcher((query) => (query.sql === failing ? Promise.reject(new Error('refused')) : queryRows(db, query)));
    const session: ReadSession = { rows: (query) => batcher.rows(query), count: () => Promise.reject(new Error('no count')), counts: () => Promise.reject(new Error('no counts')), mark: async () => null };
    const good = (brandId: string): Ask => matchingAsk(families, { path: 'skus', field: 'productId', brandId, values: ids.products!, limit: 5001 });
    const refused = (): Ask => matchingAsk(families, { path: 'product-options', field: 'productId', brandId: brands[1]!, values: ids.products!, limit: 5001 });
    const malformed = matchingAsk(families, { path: 'skus', field: 'productId', brandId: brands[0]!, values: [ids.products![0], 'not-a-uuid'], limit: 5001 });
    const asks = [good(brands[0]!), refused(), malformed, good(brands[1]!), refused(), good(brands[0]!), refused()];
    const expected = await Promise.all(asks.map((ask) => ask.read({ ...session, rows: (query) => queryRows(db, query) }).then((rows) => (rows as Row[]).length, () => 'failed')));
    const settled = await Promise.allSettled(asks.map((ask) => ask.read(session)));
    const outcome = settled.map((s) => (s.status === 'fulfilled' ? (s.value as Row[]).length : 'failed'));
    // The refused family's first went alone and was answered; its batch failed, and only its requests with it.
    expect(outcome).to.deep.equal([expected[0], expected[1], 'failed', expected[3], 'failed', expected[5], 'failed']);
    expect(expected[2]).to.equal('failed');
  });

  it('sends an include that comes alone at once: its statement is issued before the call returns', async () => {
    const { registry } = await testDatabase();
    const { queries } = compileRegistry(registry).get('skus')!;
    const issued: SqlFragment[] = [];
    const batcher = createRowBatcher(async (query) => {
      issued.push(query);
      return [];
    });
    const query = queries.matching({ brandId: randomUUID(), field: 'productId', values: [randomUUID()], limit: 5001 });
    expect(query.batch, 'an include can be batched').to.not.equal(undefined);
    void batcher.rows(query);
    expect(issued).to.deep.equal([query]);
  });

  it('reads an array literal back as the array it was written from', async () => {
    const { db } = await testDatabase();
    const values = ['', 'a', 'b,c', 'say "hi"', 'back\\slash', '{x}', 'NULL', ' lead', 'trail ', 'é✓', "it's"];
    const [row] = await queryRows(db, { sql: 'select ?::text::text[] as "a"', bindings: [arrayLiteral(values)] });
    expect(row!.a).to.deep.equal(values);
  });
});
