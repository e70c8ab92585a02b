import { randomUUID } from 'node:crypto';
import { openEmbedded } from '../src/db/connection/open-database.ts';
import { migrateToLatest } from '../src/db/schema/migrate-to-latest.ts';
import { loadRegistry } from '../src/engine/definition/registry.ts';
import { compileRegistry } from '../src/engine/compile/compile-registry.ts';
import { toPositional } from '../src/db/query/to-positional.ts';
const database = await openEmbedded({ dir: null });
await migrateToLatest(database.db);
const families = compileRegistry(await loadRegistry());
const f = families.get(process.argv[2] ?? 'countries')!;
const q = f.queries.page({ brandId: randomUUID(), filters: process.argv[4] ? JSON.parse(process.argv[4]) : {}, after: null, limit: 25, sort: f.sorts.get(process.argv[3] ?? 'createdAt')! });
console.log(q.sql);
await database.db.transaction(async (trx) => {
  await trx.raw('set local enable_seqscan = off'); await trx.raw('set local enable_sort = off');
  const r = await trx.raw(`explain ${q.sql}`, q.bindings as never);
  console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n'));
});
await database.close();
