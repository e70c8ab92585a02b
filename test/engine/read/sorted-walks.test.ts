import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDatabaseReads } from '../../../src/db/database-reads.ts';
import { createReadReplicas } from '../../../src/db/connection/read-replicas.ts';
import { compileRegistry, type CompiledResource } from '../../../src/engine/compile/compile-registry.ts';
import { FIELD_TYPES } from '../../../src/engine/compile/field-types.ts';
import type { ListSort } from '../../../src/engine/compile/list-sorts.ts';
import { listRecords, openWalk } from '../../../src/engine/read/read-records.ts';
import type { Reads } from '../../../src/engine/read/reads.ts';
import { createCursorCodec } from '../../../src/engine/request/cursor-codec.ts';
import type { ListRequest } from '../../../src/engine/request/parse-query.ts';
import type { Field } from '../../../src/engine/definition/resource.ts';
import type { FieldType } from '../../../src/engine/definition/resource-definition.ts';
import { seededRandom } from '../../../tools/shared/seeded-random.ts';
import { createBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

/**
 * Model-based: a walk in any order a family takes never repeats or skips a
 * record that existed when it began (CONTRACT.md §8), whatever the values:
 * nulls, values equal as the column compares them (`1.50` and `1.5`), ties
 * of `created_at` to the microsecond, the extremes Postgres stores; and
 * while rows are inserted, before and after the cursor, during the walk.
 * Every page is checked against Postgres's own `ORDER BY` of the brand's
 * rows at that moment: it is exactly the rows that follow the last page's
 * last row. One family per type a sort takes, a shared family (its rows of
 * no brand are part of every brand's list), random page sizes, both
 * directions, and each walk once prepared and once planned per request
 * (with a range that keeps every row).
 */

/** Values of each type, several equal or tied as the column compares them, and the extremes. */
const POOLS: Readonly<Partial<Record<FieldType, readonly string[]>>> = {
  string: ['A', 'a', 'B', 'AA', '', 'Z-1', 'ä', 'A'],
  enum: [],
  integer: ['-5', '0', '1', '1', '7', '2147483647', '-2147483648'],
  decimal: ['1.50', '1.5', '-0.01', '100', 'NaN', '99999999999999999999.000000000000000001', '0'],
  date: ['2026-01-01', '2026-01-02', '2026-01-02', '0044-03-15 BC', 'infinity', '-infinity', '10000-01-01'],
  timestamp: [
    '2026-01-01 00:00:00.000001+00', '2026-01-01 00:00:00.000002+00', '2026-01-01 00:00:00.000002+00', '2026-01-01 00:00:00+00',
    'infinity', '-infinity', '0044-03-15 12:00:00+00 BC',
  ],
};
/** Creation times that tie, to the microsecond and exactly. */
const CREATED = ['2026-03-01 09:00:00.000001+00', '2026-03-01 09:00:00.000001+00', '2026-03-01 09:00:00.000002+00', '2026-03-01 09:00:00+00', '2026-02-01 00:00:00+00'];

interface World {
  readonly db: Knex;
  readonly families: ReadonlyMap<string, CompiledResource>;
  readonly reads: Reads;
  readonly random: () => number;
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** A value of a field as SQL text, or null (a quarter of the time, where the field may be null). */
function valueOf(field: Field, random: () => number): string | null {
  if (field.nullable && random() < 0.25) return null;
  const pool = field.values ?? POOLS[field.type];
  return pick(random, pool!);
}

/** Inserts a row of the family for the brand (null: a shared row) with random sort values and creation time. */
async function plant({ db, random }: World, { family, brandId }: { family: CompiledResource; brandId: string | null }): Promise<void> {
  const columns = family.resource.sorts.filter((field) => field.name !== 'createdAt');
  const values = columns.map((field) => valueOf(field, random));
  const names = ['id', 'brand_id', 'created_at', ...columns.map((field) => field.sourceColumn)];
  const casts = ['uuid', 'uuid', 'timestamptz', ...columns.map((field) => FIELD_TYPES[field.type].columnType)];
  await db.raw(
    `insert into "${family.resource.table}" (${names.map((n) => `"${n}"`).join(', ')}) values (${casts.map((c) => `?::${c}`).join(', ')})`,
    [randomUUID(), brandId, pick(random, CREATED), ...values],
  );
}

/** The brand's rows in Postgres's own order for the sort: the model every page is checked against. */
async function orderedIds(db: Knex, { family, brandId, sort }: { family: CompiledResource; brandId: string; sort: ListSort }): Promise<string[]> {
  const direction = sort.descending ? 'desc' : 'asc';
  const nulls = sort.descending ? 'nulls first' : 'nulls last';
  const keys = sort.field.name === 'createdAt' ? [] : [`"${sort.field.sourceColumn}" ${direction} ${nulls}`];
  const scope = family.resource.scope === 'shared' ? '(brand_id = ? or brand_id is null)' : 'brand_id = ?';
  const rows = (await db.raw(
    `select id from "${family.resource.table}" where ${scope} order by ${[...keys, `created_at ${direction}`, `id ${direction}`].join(', ')}`,
    [brandId],
  )) as { rows: { id: string }[] };
  return rows.rows.map((row) => row.id);
}

/**
 * Walks the whole list in one order, inserting rows as it goes, and checks
 * each page against the model; gives every id the walk returned, in order.
 */
async function walk(world: World, { family, brandId, otherId, sort, filters }: {
  family: CompiledResource;
  brandId: string;
  /** Another brand, whose rows are never in the list (and, for a shared family, null: rows of no brand, which are). */
  otherId: string;
  sort: ListSort;
  filters: Record<string, unknown>;
}): Promise<{ seen: string[]; before: string[] }> {
  const cursors = createCursorCodec('k'.repeat(32));
  const before = await orderedIds(world.db, { family, brandId, sort });
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 500; pages++) {
    const request: ListRequest = { limit: 1 + Math.floor(world.random() * 6), cursor, sort, filters, includes: [], fields: null };
    const now = await orderedIds(world.db, { family, brandId, sort });
    const at = seen.length === 0 ? 0 : now.indexOf(seen[seen.length - 1]!) + 1;
    const page = await world.reads.run((session) => listRecords({
      session, families: world.families, brandId, family, request, walk: openWalk({ cursors, brandId, family, request }), cursors,
    }));
    const ids = page.items.map((item) => item.id as string);
    expect(ids, `${family.resource.path} sort=${sort.name} page ${pages}`).to.deep.equal(now.slice(at, at + request.limit));
    seen.push(...ids);
    // Rows arrive during the walk, anywhere in the order, this brand's and others'.
    if (world.random() < 0.5) {
      const elsewhere = family.resource.scope === 'shared' && world.random() < 0.5 ? null : otherId;
      await plant(world, { family, brandId: world.random() < 0.7 ? brandId : elsewhere });
    }
    if (page.nextCursor === null) return { seen, before };
    cursor = page.nextCursor;
  }
  throw new Error('the walk did not end');
}

describe('sorted walks (model-based): every order, nulls, ties and inserts during the walk', function () {
  this.timeout(300_000);
  let world: World;

  before(async () => {
    const { db, registry } = await testDatabase();
    world = {
      db,
      families: compileRegistry(registry),
      reads: createDatabaseReads(createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: { warn() {}, info() {}, error() {} } as never })),
      random: seededRandom(20261128),
    };
  });

  /** A family for each type a sort takes (a nullable field where one exists), and the first shared family. */
  function chosenFamilies(): CompiledResource[] {
    const lists = [...world.families.values()].filter((family) => family.resource.scope !== 'tenant');
    const chosen = new Set<CompiledResource>();
    for (const type of Object.keys(POOLS) as FieldType[]) {
      const holding = lists.filter((family) => family.resource.sorts.some((field) => field.type === type && field.name !== 'createdAt'));
      const found = holding.find((family) => family.resource.sorts.some((field) => field.type === type && field.nullable)) ?? holding[0];
      if (found) chosen.add(found);
    }
    const shared = lists.find((family) => family.resource.scope === 'shared' && family.resource.sorts.length > 2);
    if (shared) chosen.add(shared);
    return [...chosen];
  }

  it('walks each chosen family in every order it takes, both ways, prepared and planned per request: every page is Postgres\'s next rows', async () => {
    const families = chosenFamilies();
    const types = new Set(families.flatMap((family) => family.resource.sorts.map((field) => field.type)));
    expect([...types].sort()).to.include.members(['date', 'decimal', 'integer', 'string', 'timestamp']);
    expect(families.some((family) => family.resource.scope === 'shared')).to.equal(true);
    const walked: string[] = [];
    for (const family of families) {
      const brand = await createBrand();
      const other = await createBrand();
      for (let i = 0; i < 24; i++) await plant(world, { family, brandId: brand.id });
      for (let i = 0; i < 6; i++) await plant(world, { family, brandId: other.id });
      if (family.resource.scope === 'shared') for (let i = 0; i < 6; i++) await plant(world, { family, brandId: null });
      for (const sort of family.sorts.values()) {
        // A range that keeps every row makes the page planned per request (never prepared): the other form of the statement.
        for (const filters of [{}, { 'createdAt[gte]': '0001-01-01T00:00:00Z' }]) {
          const { seen, before } = await walk(world, { family, brandId: brand.id, otherId: other.id, sort, filters });
          expect(new Set(seen).size, `${family.resource.path} sort=${sort.name}: no record twice`).to.equal(seen.length);
          expect(before.filter((id) => !seen.includes(id)), `${family.resource.path} sort=${sort.name}: no record that existed skipped`).to.deep.equal([]);
          walked.push(`${family.resource.path} ${sort.name}`);
        }
      }
    }
    // Each chosen family in at least four orders (createdAt and another field, both ways), each twice.
    expect(walked.length).to.be.at.least(families.length * 8);
    expect(families.length).to.be.at.least(3);
  });
});
