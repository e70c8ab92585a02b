import { randomBytes } from 'node:crypto';
import { migrateToLatest } from '../../src/db/schema/migrate-to-latest.ts';
import { openEmbedded } from '../../src/db/connection/open-database.ts';
import { DEFAULT_SORT } from '../../src/engine/compile/list-sorts.ts';
import { compileRegistry } from '../../src/engine/compile/compile-registry.ts';
import { createReadReplicas } from '../../src/db/connection/read-replicas.ts';
import { createDatabaseReads } from '../../src/db/database-reads.ts';
import { createCursorCodec } from '../../src/engine/request/cursor-codec.ts';
import type { OpenApiExamples } from '../../src/engine/openapi/build-openapi.ts';
import { getRecord, listRecords, openWalk } from '../../src/engine/read/read-records.ts';
import type { Registry } from '../../src/engine/definition/registry.ts';
import { DEMO_BRAND, seedDemo } from '../../src/seed/demo-seed.ts';

/**
 * One record per family as a client reads it from the demo data: the first
 * of the demo brand's list (the brand itself for the tenant family). The demo
 * seed gives every record the same id and timestamps on every load, so the
 * examples only change when the registry or the seed does.
 */
export async function readDemoExamples(registry: Registry): Promise<OpenApiExamples> {
  const database = await openEmbedded({ dir: null });
  try {
    const { db } = database;
    await migrateToLatest(db);
    await seedDemo({ db, registry });
    const brand = await db('brands').where({ slug: DEMO_BRAND.slug }).first('id');
    const brandId = String(brand.id);
    const families = compileRegistry(registry);
    // The examples never show a cursor, so a throwaway secret will do.
    const cursors = createCursorCodec(randomBytes(32).toString('hex'));
    const reads = createDatabaseReads(createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: console }));
    const examples: Record<string, Readonly<Record<string, unknown>>> = {};
    for (const family of families.values()) {
      const { path } = family.resource;
      const request = { limit: 1, cursor: null, sort: family.sorts.get(DEFAULT_SORT)!, filters: {}, includes: [], fields: null };
      const record = await reads.run(async (session) => family.resource.scope === 'tenant'
        ? getRecord({ session, families, brandId, family, id: brandId, includes: [] })
        : (await listRecords({ session, families, brandId, family, cursors, request, walk: openWalk({ cursors, brandId, family, request }) })).items[0]);
      if (record) examples[path] = record;
    }
    return examples;
  } finally {
    await database.close();
  }
}
