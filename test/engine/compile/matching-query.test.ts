import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createReadReplicas, type ReadReplicas } from '../../../src/db/connection/read-replicas.ts';
import { createDatabaseReads } from '../../../src/db/database-reads.ts';
import { compileRegistry, type CompiledResource } from '../../../src/engine/compile/compile-registry.ts';
import type { SqlFragment } from '../../../src/engine/compile/sql-fragment.ts';
import type { Reads } from '../../../src/engine/read/reads.ts';
import { collectingLogger } from '../../support/collecting-logger.ts';
import { insert, resetToBrands } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

/** An include's query (matching-query.ts): the records whose field is one of the values, in list order, at most a limit. */
describe('matchingQuery', () => {
  let families: ReadonlyMap<string, CompiledResource>;
  let replicas: ReadReplicas;
  let reads: Reads;

  before(async () => {
    const { db, registry } = await testDatabase();
    families = compileRegistry(registry);
    replicas = createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: collectingLogger().logger });
    reads = createDatabaseReads(replicas);
  });
  after(() => replicas.close());

  const ids = async (query: SqlFragment): Promise<string[]> => (await reads.run((session) => session.rows(query))).map((row) => row.id as string);
  const matching = (path: string, args: { brandId: string; field: string; values: readonly unknown[]; limit: number }): SqlFragment =>
    families.get(path)!.queries.matching(args);

  it('reads the brand\'s records whose field is one of the values, in list order, at most the limit', async () => {
    const [acme, globex] = await resetToBrands('acme', 'globex');
    const [tee, polo, cap] = await insert('products', acme.id, [{ code: 'TEE' }, { code: 'POLO' }, { code: 'CAP' }]);
    const versions = await insert('product-versions', acme.id, [
      { productId: tee!.id, versionNumber: 1 }, { productId: polo!.id, versionNumber: 1 }, { productId: cap!.id, versionNumber: 1 }, { productId: tee!.id, versionNumber: 2 },
    ]);
    await insert('product-versions', globex.id, [{ productId: tee!.id, versionNumber: 9 }]);
    const wanted = { brandId: acme.id, field: 'productId', values: [tee!.id, polo!.id, randomUUID()] };
    expect(await ids(matching('product-versions', { ...wanted, limit: 10 }))).to.deep.equal([versions[0]!.id, versions[1]!.id, versions[3]!.id]);
    expect(await ids(matching('product-versions', { ...wanted, limit: 2 }))).to.deep.equal([versions[0]!.id, versions[1]!.id]);
    expect(await ids(matching('product-versions', { ...wanted, brandId: globex.id, limit: 10 })), 'another brand\'s').to.have.length(1);
    expect(await ids(matching('product-versions', { ...wanted, values: [], limit: 10 }))).to.deep.equal([]);
  });

  it('reads a shared family\'s rows of no brand too, never another brand\'s', async () => {
    const [acme, globex] = await resetToBrands('acme', 'globex');
    const [everyone] = await insert('couriers', null, [{ code: 'DHL', mode: 'air' }]);
    const [own] = await insert('couriers', acme.id, [{ code: 'OWN', mode: 'air' }]);
    await insert('couriers', globex.id, [{ code: 'THEIRS', mode: 'air' }]);
    expect(await ids(matching('couriers', { brandId: acme.id, field: 'mode', values: ['air'], limit: 10 }))).to.deep.equal([everyone!.id, own!.id]);
  });

  it('binds the values as one array: one statement text whatever their number, which may share a batch when its type can travel in one', async () => {
    const brandId = randomUUID();
    const one = matching('product-versions', { brandId, field: 'productId', values: [randomUUID()], limit: 5 });
    const many = matching('product-versions', { brandId, field: 'productId', values: Array.from({ length: 50 }, () => randomUUID()), limit: 5 });
    expect(many.sql).to.equal(one.sql);
    expect(many.bindings).to.have.length(one.bindings.length);
    expect(one.label).to.deep.include({ family: 'product-versions', operation: 'include' });
    expect(one.batch, 'uuids travel in a batch').to.not.equal(undefined);
    expect(matching('product-versions', { brandId, field: 'createdAt', values: ['2026-03-01T00:00:00Z'], limit: 5 }).batch, 'a timestamp does not').to.equal(undefined);
    expect(matching('product-versions', { brandId, field: 'productId', values: ['not a uuid'], limit: 5 }).batch, 'nor a value its column refuses').to.equal(undefined);
  });
});
