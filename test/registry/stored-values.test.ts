import { expect } from 'chai';
import type { Knex } from 'knex';
import { compileSchema } from '../../src/engine/compile/compile-schema.ts';
import { FIELD_TYPES } from '../../src/engine/compile/field-types.ts';
import { recordSchema } from '../../src/engine/compile/schemas.ts';
import { loadRegistry } from '../../src/engine/definition/registry.ts';
import type { Field, Resource } from '../../src/engine/definition/resource.ts';
import type { FieldType } from '../../src/engine/definition/resource-definition.ts';
import { createBrand, createTestKey } from '../support/fixtures.ts';
import { qs } from '../support/list-order.ts';
import { makeRecords } from '../support/record-factory.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.ts';
import { listedFamilies } from '../support/registry-lookups.ts';

/**
 * Every value Postgres can store comes back as stored (CONTRACT.md §2), over
 * HTTP, through the list, the single record and the changes feed: for each
 * field type the registry uses, a table of extreme values is written with
 * SQL into a family that has a field of that type, and read back. Then a
 * walk with `limit=1` over rows of every family with extreme `created_at`
 * (4713 BC to 294276 AD, and the infinities) visits every row once, in
 * order. The families and fields come from the registry; only the values
 * are written here.
 */

const registry = await loadRegistry();
const families = listedFamilies(registry);

/** One stored value: the SQL literal written into the column, and the JSON text the API must send for it. */
type Extreme = readonly [stored: string | null, json: string];

const timestampsAtTheEdges: readonly Extreme[] = [
  ['-infinity', '"-infinity"'],
  ['4713-11-24 00:00:00+00 BC', '"-004712-11-24T00:00:00.000Z"'],
  ['0044-03-15 12:00:00.123456+00 BC', '"-000043-03-15T12:00:00.123Z"'],
  ['0001-12-31 23:59:59.999999+00 BC', '"+000000-12-31T23:59:59.999Z"'],
  ['0001-01-01 00:00:00+00', '"0001-01-01T00:00:00.000Z"'],
  ['2026-03-01 09:00:00.000001+00', '"2026-03-01T09:00:00.000Z"'],
  ['2026-03-01 09:00:00.000002+00', '"2026-03-01T09:00:00.000Z"'],
  ['9999-12-31 23:59:59.999999+00', '"9999-12-31T23:59:59.999Z"'],
  ['10000-01-01 00:00:00+00', '"+010000-01-01T00:00:00.000Z"'],
  ['294276-12-31 23:59:59.999999+00', '"+294276-12-31T23:59:59.999Z"'],
  ['infinity', '"infinity"'],
];

const strings = [
  '',
  ' spaces around ',
  'x'.repeat(20_000),
  'é😀\u2028\u2029 "quoted" \\ / \u0001\u001f\t\n\r\u007f',
  'שָׁלוֹם مرحبا e\u0301 \uFEFF',
  '\\u0000json: not a mark',
];

/** Extreme values by field type; an enum's are its declared values. Typed by `FieldType`, so a new type needs a table here. */
const EXTREMES: Readonly<Record<FieldType, (field: Field) => readonly Extreme[]>> = {
  uuid: () => [
    ['00000000-0000-0000-0000-000000000000', '"00000000-0000-0000-0000-000000000000"'],
    ['FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '"ffffffff-ffff-ffff-ffff-ffffffffffff"'],
    ['{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', '"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"'],
  ],
  string: () => strings.map((value) => [value, JSON.stringify(value)] as const),
  enum: (field) => (field.values ?? []).map((value) => [value, JSON.stringify(value)] as const),
  integer: () => [['-2147483648', '-2147483648'], ['2147483647', '2147483647'], ['0', '0']],
  decimal: () => [
    ['1.50', '"1.50"'],
    ['-0.000000000000000000001', '"-0.000000000000000000001"'],
    ['123456789012345678901234567890.123456789012345678901234567890', '"123456789012345678901234567890.123456789012345678901234567890"'],
    ['1e400', `"1${'0'.repeat(400)}"`],
    ['NaN', '"NaN"'],
    ['Infinity', '"Infinity"'],
    ['-Infinity', '"-Infinity"'],
  ],
  boolean: () => [['true', 'true'], ['false', 'false']],
  date: () => [
    ['4713-01-01 BC', '"-004712-01-01"'],
    ['0044-03-15 BC', '"-000043-03-15"'],
    ['0001-12-31 BC', '"+000000-12-31"'],
    ['0001-01-01', '"0001-01-01"'],
    ['9999-12-31', '"9999-12-31"'],
    ['10000-01-01', '"+010000-01-01"'],
    ['5874897-12-31', '"+5874897-12-31"'],
    ['infinity', '"infinity"'],
    ['-infinity', '"-infinity"'],
  ],
  timestamp: () => timestampsAtTheEdges,
  // As Postgres prints jsonb (keys sorted, numbers as numerics), without the spaces between tokens.
  json: () => [
    ['9007199254740993', '9007199254740993'],
    ['-9007199254740993', '-9007199254740993'],
    ['1e400', `1${'0'.repeat(400)}`],
    ['-1E-400', `-0.${'0'.repeat(399)}1`],
    ['{"n": 1.50, "m": -0.0, "big": 123456789012345678901234567890.123456789012345678901234567890}', '{"m":0.0,"n":1.50,"big":123456789012345678901234567890.123456789012345678901234567890}'],
    ['[1E-7, 0.1e2, 1.0E+2, 2.500e0]', '[0.0000001,10,100,2.500]'],
    ['{"bb": 1, "a": 2, "a": 3}', '{"a":3,"bb":1}'],
    ['"\\u00e9\\ud83d\\ude00 \\u2028 \\" \\\\ \\/ \\u0001"', '"é😀 \u2028 \\" \\\\ / \\u0001"'],
    ['{"a b": " , : ", "nested": [[[{"deep": [true, false, null]}]]]}', '{"a b":" , : ","nested":[[[{"deep":[true,false,null]}]]]}'],
    ['null', 'null'],
    ['[]', '[]'],
  ],
};

/** The field that carries a type's table: the first of the registry with that type in its family's own column, not a reference. */
function carriers(): { resource: Resource; field: Field }[] {
  const found = new Map<FieldType, { resource: Resource; field: Field }>();
  for (const resource of families) {
    for (const field of resource.recordFields) {
      if (found.has(field.type) || field.join !== null || field.references !== null || field.name === 'createdAt') continue;
      found.set(field.type, { resource, field });
    }
  }
  return [...found.values()];
}

let server: TestServer;
let db: Knex;
let key: string;

/** GETs a path and expects 200. */
async function ok(path: string): Promise<TestResponse> {
  const response = await server.request(path, { key });
  expect(response.status, `${path}: ${response.text.slice(0, 300)}`).to.equal(200);
  return response;
}

/** Every page of a walk with `limit=1`: each page's one item and the page's text. */
async function walk(first: string, itemOf: (body: any) => { id: string }): Promise<{ id: string; text: string; body: any }[]> {
  const pages: { id: string; text: string; body: any }[] = [];
  let path: string | null = first;
  while (path !== null) {
    const response = await ok(path);
    expect(response.body.items, path).to.have.length(1);
    pages.push({ id: itemOf(response.body).id, text: response.text, body: response.body });
    const next = response.headers.get('link');
    path = next === null ? null : /^<([^>]+)>/.exec(next)![1]!;
    if (pages.length > 100) throw new Error(`${first}: the walk does not end`);
  }
  return pages;
}

/** Plants one row per value in a fresh brand, then writes each value into the column with SQL; gives the rows' ids (as the API writes them). */
async function plant({ resource, column, type, values }: { resource: Resource; column: string; type: string; values: readonly (string | null)[] }): Promise<{ slug: string; ids: string[] }> {
  const brand = await createBrand();
  const rows = await makeRecords({ registry, path: resource.path, brandId: brand.id, count: values.length });
  const ids: string[] = [];
  for (const [i, value] of values.entries()) {
    const updated = (await db.raw(`update "${resource.table}" set "${column}" = ?::${type} where id = ? returning id::text as id`, [value, rows[i]!.id])) as { rows: { id: string }[] };
    ids.push(updated.rows[0]!.id);
  }
  return { slug: brand.slug, ids };
}

describe('stored values round-trip over HTTP (CONTRACT.md §2)', () => {
  before(async () => {
    ({ db } = await testDatabase());
    await resetDatabase(db);
    ({ key } = await createTestKey({ global: true }));
    server = await startTestServer();
  });

  after(async () => {
    await server?.close();
  });

  it('the registry has a carrier for every field type it uses', () => {
    const used = new Set(families.flatMap((resource) => resource.recordFields.map((field) => field.type)));
    expect(new Set(carriers().map(({ field }) => field.type))).to.deep.equal(used);
  });

  for (const { resource, field } of carriers()) {
    it(`${field.type}: ${resource.path}.${field.name} gives back every extreme value as stored, in the list, the record and the changes feed`, async () => {
      const extremes = [...EXTREMES[field.type](field), ...(field.nullable ? [[null, 'null'] as const] : [])];
      const { slug, ids } = await plant({ resource, column: field.sourceColumn, type: FIELD_TYPES[field.type].columnType, values: extremes.map(([stored]) => stored) });
      const expected = new Map(ids.map((id, i) => [id, `"${field.name}":${extremes[i]![1]}`]));
      const validRecord = compileSchema(recordSchema(resource));
      const base = `/brands/${slug}/${resource.path}`;

      const listed = await walk(`${base}${qs({ limit: '1' })}`, (body) => body.items[0]);
      const changed = await walk(`${base}/changes${qs({ limit: '1' })}`, (body) => body.items[0]);
      for (const [route, pages] of [['list', listed], ['changes', changed]] as const) {
        expect(pages.map((page) => page.id).sort(), route).to.deep.equal([...ids].sort());
        for (const page of pages) {
          expect(page.text, `${route} ${page.id}`).to.include(expected.get(page.id));
          const record = route === 'list' ? page.body.items[0] : page.body.items[0].record;
          expect(validRecord(record), `${route} ${page.id}: ${JSON.stringify(validRecord.errors)}`).to.equal(true);
        }
      }
      for (const id of ids) {
        const got = await ok(`${base}/${id}`);
        expect(got.text, `get ${id}`).to.include(expected.get(id));
        expect(got.body.id).to.equal(id);
      }
    });
  }

  it('an included record gives back its stored JSON exactly too, on a list and on a get', async () => {
    const stored = '{"n": 9007199254740993, "s": 1.50}';
    const written = '{"n":9007199254740993,"s":1.50}';
    const includes = families.flatMap((resource) => resource.includes.map((include) => ({ resource, include, target: registry.get(include.resource) })))
      .flatMap(({ resource, include, target }) => target.recordFields.filter((field) => field.type === 'json' && field.join === null).map((field) => ({ resource, include, target, field })));
    expect(includes, 'an include of a family with a JSON field').to.not.be.empty;
    for (const { resource, include, target, field } of includes) {
      const brand = await createBrand();
      const plant = (path: string, overrides = {}) => makeRecords({ registry, path, brandId: brand.id, overrides }).then(([row]) => row!);
      // To one: the record points at the included one; to many: the included ones point at the record.
      const [parent, child] = include.cardinality === 'one'
        ? await plant(target.path).then(async (child) => [await plant(resource.path, { [include.localField]: child[include.remoteField] }), child])
        : await plant(resource.path).then(async (parent) => [parent, await plant(target.path, { [include.remoteField]: parent[include.localField] })]);
      await db.raw(`update "${target.table}" set "${field.sourceColumn}" = ?::jsonb where id = ?`, [stored, child!.id]);
      const base = `/brands/${brand.slug}/${resource.path}`;
      for (const path of [`${base}${qs({ include: include.name })}`, `${base}/${parent!.id}${qs({ include: include.name })}`]) {
        expect((await ok(path)).text, `${path}: ${target.path}.${field.name}`).to.include(`"${field.name}":${written}`);
      }
    }
  });

  it('every family walks rows with extreme created_at (4713 BC to 294276 AD, and the infinities) page by page, each row once, in order', async function () {
    this.timeout(240_000);
    // Two rows share each of 44 BC, infinity and -infinity, so the walk must order them by id.
    const created = [...timestampsAtTheEdges, timestampsAtTheEdges[0]!, timestampsAtTheEdges[2]!, timestampsAtTheEdges[10]!];
    const rank = (i: number): number => timestampsAtTheEdges.indexOf(created[i]!);
    for (const resource of families) {
      const { slug, ids } = await plant({ resource, column: 'created_at', type: 'timestamptz', values: created.map(([stored]) => stored) });
      const order = ids.map((id, i) => ({ id, i })).sort((a, b) => rank(a.i) - rank(b.i) || (a.id < b.id ? -1 : 1));
      const pages = await walk(`/brands/${slug}/${resource.path}${qs({ limit: '1' })}`, (body) => body.items[0]);
      expect(pages.map((page) => page.id), resource.path).to.deep.equal(order.map(({ id }) => id));
      pages.forEach((page, n) => {
        expect(page.body.items[0].createdAt, `${resource.path} page ${n + 1}`).to.equal(JSON.parse(created[order[n]!.i]![1]));
        expect(page.body.totalItems).to.equal(created.length);
      });
      // A filter keeps its walk to the rows it matches: from 2026 on, the long years and infinity included.
      const since = await walk(`/brands/${slug}/${resource.path}${qs({ createdSince: '2026-01-01T00:00:00Z', limit: '1' })}`, (body) => body.items[0]);
      expect(since.map((page) => page.id), `${resource.path} createdSince`).to.deep.equal(order.filter(({ i }) => rank(i) >= 5).map(({ id }) => id));
    }
  });
});
