import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { RecordInput } from '../../src/db/insert-records.ts';
import type { JsonSchema } from '../../src/engine/compile/field-types.ts';
import { loadRegistry } from '../../src/engine/definition/registry.ts';
import type { Field, Filter, FilterTarget, Include, Join, Resource } from '../../src/engine/definition/resource.ts';
import { filterSchemas, listEnvelopeSchema, recordSchema } from '../../src/engine/compile/schemas.ts';
import { compileSchema } from '../../src/engine/compile/compile-schema.ts';
import { listSorts, type ListSort } from '../../src/engine/compile/list-sorts.ts';
import { MATCH_KINDS } from '../../src/engine/compile/match-kinds.ts';
import { RANGE_BOUNDS, rangeParameter, type RangeBound } from '../../src/engine/definition/range-filters.ts';
import { createBrand, createTestKey, nextTimestamp } from '../support/fixtures.ts';
import {
  acceptsParameter,
  distinctValues,
  invalidParameterValues,
  makeRecords,
  nextSequence,
  queryValue,
  renderedValue,
  sampleValue,
  validParameterValue,
  type Overrides,
  type PlantedRecord,
} from '../support/record-factory.ts';
import { listOrder, qs } from '../support/list-order.ts';
import { familiesInRun, familiesInRunNote } from '../support/families-in-run.ts';
import { familyOfTable, fieldByColumn, listedFamilies } from '../support/registry-lookups.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.ts';

/**
 * The rules every family shares, generated from the registry: whatever is in
 * resources/ is covered, with no family named here. Each family gets a
 * describe; its data is planted from its definition (fields by type,
 * references, joins, includes), and every test uses brands of its own, so
 * tests need no database reset between them (only shared rows, which every
 * brand sees, make the next test reset first).
 */

const registry = await loadRegistry();
const tenant = registry.resources.find((resource) => resource.scope === 'tenant');
const families = listedFamilies(registry);

interface Brand {
  readonly id: string;
  readonly slug: string;
}

/** Two brands, a key for each, for one test. */
interface World {
  readonly a: Brand;
  readonly b: Brand;
  readonly keyA: string;
  readonly keyB: string;
}

let server: TestServer;
/** A global key, for tests about data rather than key scopes (created again after each reset). */
let globalKey = '';
/** Families that hold rows with no brand (seen by every brand): their next test starts from an empty database. */
const dirtyFamilies = new Set<string>();

async function reset(): Promise<void> {
  await resetDatabase((await testDatabase()).db);
  dirtyFamilies.clear();
  ({ key: globalKey } = await createTestKey({ global: true }));
}

/** Two fresh brands; with `scoped`, a key for each brand alone, otherwise the global key for both. */
async function world({ scoped = false }: { scoped?: boolean } = {}): Promise<World> {
  const a = await createBrand();
  const b = await createBrand();
  if (!scoped) return { a, b, keyA: globalKey, keyB: globalKey };
  const { key: keyA } = await createTestKey({ brands: [a.slug] });
  const { key: keyB } = await createTestKey({ brands: [b.slug] });
  return { a, b, keyA, keyB };
}

/** One fresh brand, read with the global key. */
async function soloWorld(): Promise<{ brand: Brand; key: string }> {
  return { brand: await createBrand(), key: globalKey };
}

/** Sends the requests together (they only read) and checks each response. */
async function expectAll(key: string, cases: readonly { path: string; check: (response: TestResponse) => void }[]): Promise<void> {
  const responses = await Promise.all(cases.map((c) => get(c.path, key)));
  for (const [i, c] of cases.entries()) c.check(responses[i]!);
}

function plant(path: string, brandId: string | null, count = 1, overrides: Overrides = {}): Promise<PlantedRecord[]> {
  if (brandId === null && registry.get(path).scope !== 'tenant') dirtyFamilies.add(path);
  return makeRecords({ registry, path, brandId, count, overrides });
}

const get = (path: string, key: string): Promise<TestResponse> => server.request(path, { key });
const listPath = (resource: Resource, brand: Brand, params: Record<string, string> = {}): string =>
  `/brands/${brand.slug}/${resource.path}${qs(params)}`;
/** The single-record route of a record (for the tenant family, the brand itself). */
const recordPath = (resource: Resource, brand: Brand, id: string, params: Record<string, string> = {}): string =>
  resource.scope === 'tenant' ? `/${resource.path}/${brand.slug}${qs(params)}` : `/brands/${brand.slug}/${resource.path}/${id}${qs(params)}`;

function idsOf(response: TestResponse): string[] {
  expect(response.status, response.text).to.equal(200);
  return (response.body.items as { id: string }[]).map((item) => item.id);
}

function expectErrorBody(response: TestResponse, status: number, errorCode: string, what: string): void {
  expect(response.status, `${what}: ${response.text}`).to.equal(status);
  expect(response.body, `${what}: ${response.text}`).to.be.an('object');
  expect(Object.keys(response.body as object).every((k) => ['error', 'errorCode', 'details'].includes(k)), response.text).to.equal(true);
  expect(response.body.error, response.text).to.be.a('string');
  expect(response.body.errorCode, `${what}: ${response.text}`).to.equal(errorCode);
}

/** 400 `invalid_parameter` whose `details` name the parameter. */
function expectInvalidParameter(response: TestResponse, parameter: string, what: string): void {
  expectErrorBody(response, 400, 'invalid_parameter', what);
  const details = response.body.details as { parameter?: unknown }[];
  expect(details, `${what}: ${response.text}`).to.be.an('array');
  expect(details.some((issue) => issue.parameter === parameter), `${what}: details should name '${parameter}': ${response.text}`).to.equal(true);
}

/** The record keys of a family, as the API writes them. */
const recordKeys = (resource: Resource): string[] => resource.recordFields.map((field) => field.name).sort();

/** What a filter target compares: a field of this family, or of the family a join reads. */
interface TargetPlan {
  readonly join: Join | null;
  /** The family whose row holds the compared value. */
  readonly holder: Resource;
  /** The field of `holder` that holds it. */
  readonly field: Field;
}

function targetPlan(resource: Resource, target: FilterTarget): TargetPlan {
  if (target.join === null) return { join: null, holder: resource, field: fieldByColumn(resource, target.column, `${resource.path} filter on ${target.label}`) };
  const join = resource.joins[target.join]!;
  const holder = familyOfTable(registry, join.table);
  return { join, holder, field: fieldByColumn(holder, target.column, `${resource.path} filter on ${target.label}`) };
}

/**
 * Overrides that link a record of `resource` through a join to a fresh row of
 * the joined family in `brand`, written with `values`.
 */
async function link(resource: Resource, join: Join, brand: Brand, values: RecordInput = {}): Promise<{ overrides: RecordInput; row: PlantedRecord }> {
  const holder = familyOfTable(registry, join.table);
  const local = fieldByColumn(resource, join.localColumn, `${resource.path} join ${join.name}`);
  const foreign = fieldByColumn(holder, join.foreignColumn, `${resource.path} join ${join.name}`);
  if (holder.scope === 'tenant') {
    // The joined row is a brand: the record links to the brand itself.
    const { db } = await testDatabase();
    const row = (await db(holder.table).where({ id: brand.id }).first()) as Record<string, unknown>;
    const byName = Object.fromEntries(holder.fields.filter((f) => f.column).map((f) => [f.name, row[f.column!]]));
    return { overrides: { [local.name]: row[join.foreignColumn] }, row: byName };
  }
  const key = foreign.name === 'id'
    ? randomUUID()
    : (await distinctValues({ registry, field: foreign, brandId: brand.id, count: 1 }))[0];
  const [row] = await plant(holder.path, brand.id, 1, { ...values, [foreign.name]: key });
  return { overrides: { [local.name]: key }, row: row! };
}

/** Overrides that make a record's filter target equal `value`, in `brand` (for a join: through a new joined row of that brand). */
async function withTarget(resource: Resource, plan: TargetPlan, brand: Brand, value: unknown): Promise<RecordInput> {
  if (plan.join === null) return { [plan.field.name]: value };
  // One joined row per brand and value, shared by the records that link to it (its field may be unique).
  const cache = linkCache.get(plan) ?? new Map<string, RecordInput>();
  linkCache.set(plan, cache);
  const key = `${brand.id}|${JSON.stringify(value)}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const { overrides } = await link(resource, plan.join, brand, { [plan.field.name]: value });
  cache.set(key, overrides);
  return overrides;
}

const linkCache = new WeakMap<TargetPlan, Map<string, RecordInput>>();

interface Planned {
  readonly matches: boolean;
  readonly overrides: RecordInput;
}

/** Plants the planned records in one batch and returns them with their plan. */
async function plantPlanned(resource: Resource, brand: Brand, planned: readonly Planned[]): Promise<{ record: PlantedRecord; matches: boolean }[]> {
  const records = await plant(resource.path, brand.id, planned.length, (i) => planned[i]!.overrides);
  return records.map((record, i) => ({ record, matches: planned[i]!.matches }));
}

async function expectFilterSelects(resource: Resource, w: World, name: string, value: string, expected: readonly PlantedRecord[], validate: (item: unknown) => boolean): Promise<void> {
  const response = await get(listPath(resource, w.a, { [name]: value, limit: '100' }), w.keyA);
  const what = `${resource.path}?${name}=${JSON.stringify(value)}`;
  expect(idsOf(response), what).to.deep.equal(listOrder(expected).map((r) => r.id));
  expect(response.body.totalItems, what).to.equal(expected.length);
  for (const item of response.body.items as unknown[]) expect(validate(item), `${what}: ${JSON.stringify(item)}`).to.equal(true);
}

/** An exact filter: records whose target equals the value come back, and no other. */
async function checkExactFilter(resource: Resource, filter: Filter, validate: (item: unknown) => boolean): Promise<void> {
  const w = await world();
  const target = filter.targets[0]!;
  const plan = targetPlan(resource, target);
  const planned: Planned[] = [];

  if (plan.join !== null && plan.holder.scope === 'tenant') {
    // The joined row is the brand: records linked to brand A match A's value, records linked to B never do.
    const linkedA = await link(resource, plan.join, w.a);
    const linkedB = await link(resource, plan.join, w.b);
    planned.push({ matches: true, overrides: linkedA.overrides }, { matches: true, overrides: linkedA.overrides });
    planned.push({ matches: false, overrides: linkedB.overrides });
    const planted = await plantPlanned(resource, w.a, planned);
    const value = queryValue(renderedValue(target.type, linkedA.row[plan.field.name]));
    await expectFilterSelects(resource, w, filter.name, value, planted.filter((p) => p.matches).map((p) => p.record), validate);
    return;
  }

  const isKey = plan.join === null && plan.field.name === 'id';
  const unique = plan.join === null && (plan.field.unique || isKey);
  const [match, ...others] = await distinctValues({ registry, field: plan.field, brandId: w.a.id, count: 4 });
  for (let i = 0; i < (unique ? 1 : 2); i += 1) planned.push({ matches: true, overrides: await withTarget(resource, plan, w.a, match) });
  const secondIndex = planned.length;
  for (const other of others) planned.push({ matches: false, overrides: await withTarget(resource, plan, w.a, other) });
  if (plan.join === null) {
    if (plan.field.nullable) planned.push({ matches: false, overrides: { [plan.field.name]: null } });
  } else {
    const local = fieldByColumn(resource, plan.join.localColumn, resource.path);
    if (local.nullable) planned.push({ matches: false, overrides: { [local.name]: null } });
    // A record of A linked to a joined row of brand B that holds the value: B's row is not A's to match.
    planned.push({ matches: false, overrides: await withTarget(resource, plan, w.b, match) });
  }
  const planted = await plantPlanned(resource, w.a, planned);
  // Brand B has a record with the value too; A never sees it.
  const [theirs] = await plant(resource.path, w.b.id, 1, isKey ? {} : await withTarget(resource, plan, w.b, match));
  const matching = planted.filter((p) => p.matches).map((p) => p.record);
  const value = queryValue(renderedValue(target.type, match));
  await expectFilterSelects(resource, w, filter.name, value, matching, validate);
  if (isKey) await expectFilterSelects(resource, w, filter.name, theirs!.id as string, [], validate);
  // And the other value selects its own records, so the filter is not just "everything but".
  const second = others[0];
  if (second !== undefined) {
    await expectFilterSelects(resource, w, filter.name, queryValue(renderedValue(target.type, second)), [planted[secondIndex]!.record], validate);
  }
}

/**
 * A since filter: the brand's records whose target is at or after the instant
 * come back, in list order; one a millisecond earlier and another brand's do not.
 */
async function checkSinceFilter(resource: Resource, filter: Filter, validate: (item: unknown) => boolean): Promise<void> {
  const w = await world();
  const field = fieldByColumn(resource, filter.targets[0]!.column, resource.path);
  // Later than anything the record factory stamps, so only these records are in play.
  const at = (offsetMs: number): string => new Date(Date.parse('2031-05-01T00:00:00.000Z') + offsetMs).toISOString();
  const planted = await plantPlanned(resource, w.a, [
    { matches: false, overrides: { [field.name]: at(-1) } },
    { matches: true, overrides: { [field.name]: at(0) } },
    { matches: true, overrides: { [field.name]: at(86_400_000) } },
  ]);
  await plant(resource.path, w.b.id, 1, { [field.name]: at(1000) });
  await expectFilterSelects(resource, w, filter.name, at(0), planted.filter((p) => p.matches).map((p) => p.record), validate);
}

/** A contains-ci filter, target by target: case-insensitive substring, `%` and `_` literal. */
async function checkContainsFilter(resource: Resource, filter: Filter, target: FilterTarget, validate: (item: unknown) => boolean): Promise<void> {
  const w = await world();
  const plan = targetPlan(resource, target);
  // The filter's other targets on this table hold values that cannot contain the needle (distinct: they may be unique).
  const neutral = (): Record<string, unknown> => {
    const values: Record<string, unknown> = {};
    for (const other of filter.targets) {
      if (other === target || other.join !== null) continue;
      const field = fieldByColumn(resource, other.column, resource.path);
      values[field.name] = field.type === 'enum' ? (field.nullable ? null : field.values![field.values!.length - 1]) : `~${nextSequence()}~`;
    }
    return values;
  };
  let needles: string[];
  let matching: unknown[];
  let decoys: unknown[];
  if (plan.field.type === 'enum') {
    const value = plan.field.values![0]!;
    needles = [value.toUpperCase(), value.toLowerCase()];
    matching = [value, value];
    decoys = plan.field.values!.filter((v) => !v.toLowerCase().includes(value.toLowerCase())).slice(0, 2);
  } else {
    const core = `k${randomUUID().slice(0, 6)}`;
    needles = [`${core}%_z`, `${core.toUpperCase()}%_Z`];
    matching = [`x ${core.toUpperCase()}%_Z y`, `${core}%_z`];
    // Each would match if `%` or `_` were wildcards.
    decoys = [`x ${core}AbZ y`, `x ${core}%Z y`, `${core}_%z`, `other ${nextSequence()}`];
  }
  const planned: Planned[] = [];
  for (const value of matching) planned.push({ matches: true, overrides: { ...neutral(), ...(await withTarget(resource, plan, w.a, value)) } });
  for (const value of decoys) planned.push({ matches: false, overrides: { ...neutral(), ...(await withTarget(resource, plan, w.a, value)) } });
  if (plan.join !== null && plan.holder.scope !== 'tenant') {
    planned.push({ matches: false, overrides: { ...neutral(), ...(await withTarget(resource, plan, w.b, matching[0])) } });
  }
  const planted = await plantPlanned(resource, w.a, planned);
  await plant(resource.path, w.b.id, 1, { ...neutral(), ...(await withTarget(resource, plan, w.b, matching[0])) });
  for (const needle of needles) {
    await expectFilterSelects(resource, w, filter.name, needle, planted.filter((p) => p.matches).map((p) => p.record), validate);
  }
}

async function checkToManyInclude(resource: Resource, include: Include, validateRelated: (item: unknown) => boolean): Promise<void> {
  const w = await world();
  const related = registry.get(include.resource);
  const local = resource.fields.find((f) => f.name === include.localField)!;
  const remote = related.fields.find((f) => f.name === include.remoteField)!;
  if (remote.column === null) throw new Error(`${resource.path} include ${include.name}: ${related.path}.${remote.name} has no column to plant`);
  const keys = local.name === 'id'
    ? [randomUUID(), randomUUID(), randomUUID()]
    : await distinctValues({ registry, field: local, brandId: w.a.id, count: 3 });
  expect(new Set(keys.map((k) => JSON.stringify(k))).size, 'three distinct keys').to.equal(3);
  const parents = await plant(resource.path, w.a.id, 3, (i) => ({ [local.name]: keys[i] }));
  // Made in neither list order nor id order: the include must sort them by createdAt.
  const [t0, t1, t2] = [nextTimestamp(), nextTimestamp(), nextTimestamp()];
  const [u0, u1, u2] = [randomUUID(), randomUUID(), randomUUID()].sort();
  const shape = remote.unique ? [{ id: u0, createdAt: t0 }] : [{ id: u2, createdAt: t2 }, { id: u1, createdAt: t0 }, { id: u0, createdAt: t1 }];
  const children = await plant(related.path, w.a.id, shape.length, (i) => ({ [remote.name]: keys[0], ...shape[i] }));
  const otherParentChild = await plant(related.path, w.a.id, 1, { [remote.name]: keys[1] });
  if (related.scope !== 'tenant') await plant(related.path, w.b.id, 1, { [remote.name]: keys[0] });
  const sharedChildren = related.scope === 'shared' ? await plant(related.path, null, 1, { [remote.name]: keys[0] }) : [];
  const expectedIds = [
    listOrder([...children, ...sharedChildren]).map((r) => r.id as string),
    otherParentChild.map((r) => r.id as string),
    [] as string[],
  ];
  const records = new Map<string, unknown>();
  for (const id of expectedIds.flat()) {
    const response = await get(recordPath(related, w.a, id), w.keyA);
    expect(response.status, `${related.path}/${id}: ${response.text}`).to.equal(200);
    records.set(id, response.body);
  }
  const expected = expectedIds.map((ids) => ids.map((id) => records.get(id)));

  const list = await get(listPath(resource, w.a, { include: include.name, limit: '100' }), w.keyA);
  expect(list.status, list.text).to.equal(200);
  for (const [i, parent] of parents.entries()) {
    const item = (list.body.items as PlantedRecord[]).find((it) => it.id === parent.id);
    expect(item, `parent ${i} in the list`).to.not.equal(undefined);
    expect(item![include.name], `list: include ${include.name} of parent ${i}`).to.deep.equal(expected[i]);
    for (const embedded of item![include.name] as unknown[]) expect(validateRelated(embedded), JSON.stringify(embedded)).to.equal(true);
  }
  for (const [i, parent] of parents.entries()) {
    const one = await get(recordPath(resource, w.a, parent.id as string, { include: include.name }), w.keyA);
    expect(one.status, one.text).to.equal(200);
    expect(one.body[include.name], `get: include ${include.name} of parent ${i}`).to.deep.equal(expected[i]);
    const bare = await get(recordPath(resource, w.a, parent.id as string), w.keyA);
    expect(bare.body).to.not.have.property(include.name);
    const { [include.name]: _embedded, ...rest } = one.body as Record<string, unknown>;
    expect(rest).to.deep.equal(bare.body);
  }
}

async function checkToOneInclude(resource: Resource, include: Include, validateRelated: (item: unknown) => boolean): Promise<void> {
  const w = await world();
  const related = registry.get(include.resource);
  const local = resource.fields.find((f) => f.name === include.localField)!;
  // The related record of brand A, one of brand B (never embedded for A) and, for shared families, a shared one.
  const mine = related.scope === 'tenant' ? w.a.id : ((await plant(related.path, w.a.id))[0]!.id as string);
  const theirs = related.scope === 'tenant' ? w.b.id : ((await plant(related.path, w.b.id))[0]!.id as string);
  const shared = related.scope === 'shared' ? ((await plant(related.path, null))[0]!.id as string) : null;
  const cases: { key: string | null; expectedId: string | null }[] = [
    { key: mine, expectedId: mine },
    { key: theirs, expectedId: null },
  ];
  if (local.nullable) cases.push({ key: null, expectedId: null });
  if (shared) cases.push({ key: shared, expectedId: shared });
  const parents = await plant(resource.path, w.a.id, cases.length, (i) => ({ [local.name]: cases[i]!.key }));
  const expected: unknown[] = [];
  for (const { expectedId } of cases) {
    if (expectedId === null) {
      expected.push(null);
      continue;
    }
    const response = await get(recordPath(related, w.a, expectedId), w.keyA);
    expect(response.status, `${related.path}/${expectedId}: ${response.text}`).to.equal(200);
    expect(validateRelated(response.body)).to.equal(true);
    expected.push(response.body);
  }
  const list = await get(listPath(resource, w.a, { include: include.name, limit: '100' }), w.keyA);
  expect(list.status, list.text).to.equal(200);
  for (const [i, parent] of parents.entries()) {
    const item = (list.body.items as PlantedRecord[]).find((it) => it.id === parent.id);
    expect(item, `parent ${i} in the list`).to.not.equal(undefined);
    expect(item![include.name], `list: include ${include.name}, case ${i}`).to.deep.equal(expected[i]);
    const one = await get(recordPath(resource, w.a, parent.id as string, { include: include.name }), w.keyA);
    expect(one.status, one.text).to.equal(200);
    expect(one.body[include.name], `get: include ${include.name}, case ${i}`).to.deep.equal(expected[i]);
    expect(one.body).to.deep.equal(item);
  }
  const bare = await get(recordPath(resource, w.a, parents[0]!.id as string), w.keyA);
  expect(bare.status, bare.text).to.equal(200);
  expect(bare.body).to.not.have.property(include.name);
}

/**
 * The parameter rules the spec and contract set for a filter's type, from the
 * registry alone: string filters take 1 to 255 characters, UUID filters the
 * lower-case pattern, enum filters their values, and so on.
 */
function specRules(filter: Filter): { invalid: string[]; valid: string[] } {
  const type = filter.match === 'contains-ci' ? 'string' : filter.targets[0]!.type;
  const values = filter.match === 'contains-ci' ? null : filter.targets[0]!.values;
  switch (type) {
    case 'string':
      return { invalid: ['', 'x'.repeat(256), 'y'.repeat(1000), 'a\u0000b'], valid: ['x', 'x'.repeat(255), 'Ünïcode %_ (L) / #2'] };
    case 'uuid': {
      const id = randomUUID();
      return { invalid: ['', 'not-a-uuid', id.toUpperCase(), id.replace(/-/g, ''), `{${id}}`, `urn:uuid:${id}`], valid: [id] };
    }
    case 'enum': {
      const first = values![0]!;
      const invalid = ['', `${first}-not-listed`, `${first} `, first.toUpperCase(), first.toLowerCase()].filter((v) => !values!.includes(v));
      return { invalid, valid: [...values!] };
    }
    case 'integer':
      return { invalid: ['', 'x', '1.5', '1e1', '0x10'], valid: ['0', '-3', '42'] };
    case 'decimal':
      return { invalid: ['', 'abc', '1,5'], valid: ['12.50', '-3', '0'] };
    case 'boolean':
      return { invalid: ['', 'yes', '2'], valid: ['true', 'false'] };
    case 'date':
      return { invalid: ['', '2026-13-01', 'yesterday', '0000-01-01'], valid: ['2026-03-01'] };
    case 'timestamp':
      return { invalid: ['', 'yesterday', '2026-03-01T25:00:00Z', '2026-03-01T09:30:00', '0000-01-01T00:00:00Z', '2026-03-01T09:30:00+16:00', `2026-03-01T09:30:00.${'1'.repeat(40)}Z`], valid: ['2026-03-01T09:30:00.000Z', '2026-03-01T10:30:00+01:00'] };
    case 'json':
      return { invalid: [''], valid: [] };
  }
}

/*
 * Asking more of a list (CONTRACT.md §8): sorts, range bounds, any of and
 * counts by value, checked once per family on one planted set rather than
 * once per parameter (the range bounds alone are four filters a field).
 */

/** The engine's range bounds (`<field>[gte]` ...): checked per family below, not one test each. */
const isRangeBound = (filter: Filter): boolean => (RANGE_BOUNDS as readonly string[]).includes(filter.match);

/** How many records the questions test plants in its brand. */
const QUESTION_RECORDS = 7;

/**
 * Which of a field's three values (ascending) each record holds; 3 is null,
 * or the largest value for a field that may not be null. Rotated by the
 * field's place, so that neighbouring fields order the records differently
 * (a sort by the wrong column shows), and every field has ties (which
 * `createdAt`, then `id` break) and, where nullable, two nulls.
 */
const VALUE_PATTERN = [1, 3, 0, 2, 1, 3, 0] as const;

/** The fields a family's lists are asked about (sorts, ranges, counts), each once, in that order. */
function questionFields(resource: Resource): Field[] {
  const out: Field[] = [];
  for (const field of [...resource.sorts, ...resource.ranges, ...resource.countable]) {
    if (!out.some((f) => f.name === field.name)) out.push(field);
  }
  return out;
}

/** A timestamp as text, to the microsecond: `<second>.<micros>Z`. */
const microsText = (ms: number, micros: string): string => `${new Date(ms).toISOString().slice(0, 19)}.${micros}Z`;

/**
 * Three valid values of a field, ascending where the type has an order
 * JavaScript can check: two timestamps a microsecond apart in the same
 * millisecond, two decimals a float cannot tell apart, integers whose text
 * order is not their order (`-3`, `7`, `12`). Strings differ in case and by
 * a trailing space, so that only the database's collation says how they sort.
 */
async function threeValues({ resource, field, brand, batchIds, place }: {
  resource: Resource;
  field: Field;
  brand: Brand;
  /** The ids the planted records will have: what a reference to the family itself names. */
  batchIds: readonly string[];
  place: number;
}): Promise<unknown[]> {
  if (field.references === resource.path) return batchIds.slice(0, 3);
  if (field.references !== null) return distinctValues({ registry, field, brandId: brand.id, count: 3 });
  switch (field.type) {
    case 'timestamp': {
      const base = Date.parse('2027-02-03T04:05:06.123Z') + place * 2 * 86_400_000;
      return [microsText(base, '123401'), microsText(base, '123402'), microsText(base + 86_400_000, '000000')];
    }
    case 'date':
      return ['2025-12-31', '2026-01-02', '2026-10-01'];
    case 'integer':
      return [-3, 7, 12];
    case 'decimal':
      return ['-12.50', '9007199254740993.000001', '9007199254740993.000002'];
    case 'uuid':
      return [randomUUID(), randomUUID(), randomUUID()];
    case 'boolean':
      return [false, true, true];
    case 'enum': {
      const values = field.values!;
      return [values[0], values[1 % values.length], values[2 % values.length]];
    }
    case 'string':
      return distinctValues({ registry, field, brandId: brand.id, count: 3 });
    case 'json':
      throw new Error(`${resource.path}.${field.name}: a json field cannot be sorted, ranged or counted`);
  }
}

/** Microseconds since the epoch of an ISO 8601 timestamp with a zone, exactly (a `Date` keeps milliseconds only). */
function instantMicros(text: string): bigint {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  if (!match) throw new Error(`not a timestamp with a zone: ${text}`);
  const fraction = (match[2] ?? '').padEnd(6, '0').slice(0, 6);
  return BigInt(Date.parse(`${match[1]}${match[3]}`)) * 1000n + BigInt(fraction);
}

/** A decimal's text as an exact integer at `scale` digits after the point. */
function scaledDecimal(text: string, scale: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const digits = BigInt(`${match[2]}${(match[3] ?? '').padEnd(scale, '0')}`);
  return match[1] === '-' ? -digits : digits;
}

/** The sign of a against b for a range type: dates as text, timestamps as instants, numbers as numbers (decimals exactly). */
function compareRanged(type: Field['type'], a: unknown, b: unknown): number {
  const sign = (x: number | bigint): number => (x > 0 ? 1 : x < 0 ? -1 : 0);
  switch (type) {
    case 'date':
      return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
    case 'timestamp':
      return sign(instantMicros(String(a)) - instantMicros(String(b)));
    case 'integer':
      return sign(Number(a) - Number(b));
    case 'decimal': {
      const scale = Math.max(...[a, b].map((v) => (String(v).split('.')[1] ?? '').length));
      return sign(scaledDecimal(String(a), scale) - scaledDecimal(String(b), scale));
    }
    default:
      throw new Error(`${type} takes no range`);
  }
}

/** Whether a stored value is inside one bound of a range (a null is in no range). */
function inBound(type: Field['type'], stored: unknown, bound: RangeBound, value: unknown): boolean {
  if (stored === null || stored === undefined) return false;
  const sign = compareRanged(type, stored, value);
  return bound === 'gte' ? sign >= 0 : bound === 'gt' ? sign > 0 : bound === 'lte' ? sign <= 0 : sign < 0;
}

/** A timestamp's instant written with another offset (`+05:30`), microseconds kept: the same bound to the server. */
function withOffset(text: string): string {
  const micros = instantMicros(text);
  const ms = Number(micros / 1000n) + (5 * 60 + 30) * 60_000;
  const fraction = String(micros % 1_000_000n).padStart(6, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${fraction}+05:30`;
}

/** A bound as a query value: the planted text; timestamps for strict bounds in another zone. */
function boundText(type: Field['type'], value: unknown, bound: RangeBound): string {
  if (type === 'timestamp' && (bound === 'gt' || bound === 'lt')) return withOffset(String(value));
  return queryValue(value);
}

/** A list (or counts) path from pairs, so a parameter may come several times. */
function pathWithPairs(resource: Resource, brand: Brand, pairs: readonly (readonly [string, string])[], route = ''): string {
  const text = new URLSearchParams(pairs.map(([k, v]) => [k, v])).toString();
  return `/brands/${brand.slug}/${resource.path}${route}${text ? `?${text}` : ''}`;
}

/**
 * The brand's rows in Postgres's own order for each sort, from one statement:
 * `<column> asc nulls last | desc nulls first, created_at, id`, in the sort's
 * direction (`created_at, id` alone for `createdAt`), as ordered aggregates.
 */
async function postgresOrders(resource: Resource, brand: Brand, sorts: readonly ListSort[]): Promise<Map<string, string[]>> {
  const { db } = await testDatabase();
  const bindings: string[] = [];
  const columns = sorts.map((sort, i) => {
    const dir = sort.descending ? 'desc' : 'asc';
    const keys = sort.field.name === 'createdAt' ? [] : [`?? ${dir} nulls ${sort.descending ? 'first' : 'last'}`];
    if (sort.field.name !== 'createdAt') bindings.push(sort.field.sourceColumn);
    return `array_to_string(array_agg("id"::text order by ${[...keys, `"created_at" ${dir}`, `"id" ${dir}`].join(', ')}), ',') as "o${i}"`;
  });
  const scope = resource.scope === 'shared' ? '("brand_id" = ? or "brand_id" is null)' : '"brand_id" = ?';
  const result = (await db.raw(`select ${columns.join(', ')} from ?? where ${scope}`, [...bindings, resource.table, brand.id])) as { rows: Record<string, string | null>[] };
  const row = result.rows[0]!;
  return new Map(sorts.map((sort, i) => [sort.name, row[`o${i}`] ? row[`o${i}`]!.split(',') : []]));
}

/**
 * What counts by a field must answer for these records: each value (as a
 * record writes it) with its number of records, the largest counts first,
 * equal counts by value ascending, null last. Strings and enums are ordered
 * by the database (its collation for the column), everything else here.
 */
async function expectedCounts(resource: Resource, field: Field, records: readonly PlantedRecord[]): Promise<{ value: unknown; count: number }[]> {
  const counted = new Map<string, { value: unknown; count: number }>();
  for (const record of records) {
    const value = renderedValue(field.type, record[field.name]);
    const key = JSON.stringify(value);
    const entry = counted.get(key) ?? { value, count: 0 };
    entry.count += 1;
    counted.set(key, entry);
  }
  let rank: (value: unknown) => number | string | boolean;
  if (field.type === 'string' || field.type === 'enum') {
    const { db } = await testDatabase();
    const rows = (await db(resource.table)
      .distinct({ v: field.sourceColumn })
      .whereIn('id', records.map((r) => r.id as string))
      .whereNotNull(field.sourceColumn)
      .orderBy(field.sourceColumn)) as { v: string }[];
    const order = rows.map((row) => row.v);
    rank = (value) => order.indexOf(value as string);
  } else {
    rank = (value) => value as number | string | boolean;
  }
  return [...counted.values()].sort((x, y) => {
    if (x.count !== y.count) return y.count - x.count;
    if (x.value === null) return 1;
    if (y.value === null) return -1;
    const [rx, ry] = [rank(x.value), rank(y.value)];
    return rx < ry ? -1 : rx > ry ? 1 : 0;
  });
}

function expectCounts(response: TestResponse, what: string, by: string, counts: readonly { value: unknown; count: number }[]): void {
  expect(response.status, `${what}: ${response.text}`).to.equal(200);
  const totalItems = counts.reduce((sum, entry) => sum + entry.count, 0);
  expect(response.body, what).to.deep.equal({ by, counts, otherItems: 0, totalItems });
}

/**
 * Walks a list in one order by `nextCursor`, `first` records on the first
 * page and `rest` on each next one (a walk may change its limit): every page
 * says the same `totalItems`, `Link` keeps the sort, and the walk ends with a
 * null cursor. Returns the ids in the order walked and the first cursor.
 */
async function walkSorted(resource: Resource, brand: Brand, key: string, sort: string, [first, rest]: readonly [number, number], expectedTotal: number, validate: (item: unknown) => boolean): Promise<{ ids: string[]; firstCursor: string | null }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let firstCursor: string | null = null;
  for (let page = 0; page <= expectedTotal; page += 1) {
    const limit = page === 0 ? first : rest;
    const response = await get(listPath(resource, brand, { sort, limit: String(limit), ...(cursor ? { cursor } : {}) }), key);
    const what = `sort=${sort}, page ${page + 1}`;
    const items = idsOf(response);
    expect(items.length, what).to.be.at.most(limit);
    expect(response.body.totalItems, what).to.equal(expectedTotal);
    for (const item of response.body.items as unknown[]) expect(validate(item), `${what}: ${JSON.stringify(item)}`).to.equal(true);
    ids.push(...items);
    cursor = response.body.nextCursor as string | null;
    if (page === 0) firstCursor = cursor;
    if (cursor === null) {
      expect(response.headers.get('link'), what).to.equal(null);
      return { ids, firstCursor };
    }
    const link = response.headers.get('link') ?? '';
    expect(new URLSearchParams(/<[^>?]*\?([^>]*)>/.exec(link)?.[1] ?? '').get('sort'), `${what}: Link ${link} keeps the sort`).to.equal(sort);
  }
  throw new Error(`sort=${sort}: still a next page after ${expectedTotal + 1} pages`);
}

/**
 * The questions of CONTRACT.md §8 for one family, on one planted set: brand A
 * holds seven records whose sorted, ranged and countable fields have ties
 * and (where nullable) nulls; brand B holds records of its own for any of.
 */
async function checkQuestions(resource: Resource, validate: (item: unknown) => boolean): Promise<void> {
  const w = await world();
  const fields = questionFields(resource);
  const batchIds = Array.from({ length: QUESTION_RECORDS }, () => randomUUID());
  const values = new Map<string, unknown[]>();
  for (const [place, field] of fields.entries()) values.set(field.name, await threeValues({ resource, field, brand: w.a, batchIds, place }));
  const valueOf = (field: Field, record: number): unknown => {
    const index = VALUE_PATTERN[(record + fields.indexOf(field)) % VALUE_PATTERN.length]!;
    return index === 3 ? (field.nullable ? null : values.get(field.name)![2]) : values.get(field.name)![index];
  };
  const records = await plant(resource.path, w.a.id, QUESTION_RECORDS, (i) => ({
    id: batchIds[i],
    ...Object.fromEntries(fields.map((field) => [field.name, valueOf(field, i)])),
  }));
  const byId = new Map(records.map((record) => [record.id as string, record]));

  // (c) Any of, in brand B: the first exact filter on a column of the family, given two values, selects the records holding either.
  const anyOf = resource.filters.find((filter) => filter.match === 'exact' && filter.targets[0]!.join === null);
  if (anyOf) {
    const target = anyOf.targets[0]!;
    const field = fieldByColumn(resource, target.column, `${resource.path} filter ${anyOf.name}`);
    const ids = Array.from({ length: 5 }, () => randomUUID());
    const own = field.name === 'id' || field.references === resource.path;
    const candidates = own ? ids.slice(0, 3) : await distinctValues({ registry, field, brandId: w.b.id, count: 3 });
    const [first, second, ...others] = candidates;
    const held = field.name === 'id' || field.unique
      ? [first, second, ...others]
      : [first, second, ...others, first, ...(field.nullable ? [null] : [second])];
    const theirs = await plant(resource.path, w.b.id, held.length, (i) => ({ id: ids[i], ...(field.name === 'id' ? {} : { [field.name]: held[i] }) }));
    const wanted = [first, second].map((v) => queryValue(renderedValue(target.type, v)));
    const matching = theirs.filter((record) => record[field.name] !== null && wanted.includes(queryValue(renderedValue(target.type, record[field.name]))));
    expect(matching.length, 'records holding either value').to.be.at.least(2);
    if (others.length > 0 || (field.nullable && field.name !== 'id')) expect(matching.length, 'some records hold neither value').to.be.below(theirs.length);
    const response = await get(pathWithPairs(resource, w.b, [...wanted.map((v) => [anyOf.name, v] as const), ['limit', '100']]), w.keyB);
    const what = `${anyOf.name}=${wanted.join(`&${anyOf.name}=`)}`;
    expect(idsOf(response), what).to.deep.equal(listOrder(matching).map((r) => r.id));
    expect(response.body.totalItems, what).to.equal(matching.length);
    // The counts route takes the same filter.
    const by = resource.countable[0];
    if (by) {
      const counted = await get(pathWithPairs(resource, w.b, [['by', by.name], ...wanted.map((v) => [anyOf.name, v] as const)], '/counts'), w.keyB);
      expectCounts(counted, `counts by ${by.name}, ${what}`, by.name, await expectedCounts(resource, by, matching));
    }
  }

  // (a) Every sort, both ways, walked in two pages, is Postgres's own order of the brand's rows (B's never among them).
  // A nullable field's two nulls come last ascending and first descending: a first page of three ascending ends on a
  // value (whose ties, after the rotation, often go on in the next page) before the nulls, and one of two descending
  // ends on a null before the values: the two places where a walk goes from one range of the index to the other.
  const sorts = [...listSorts(resource).values()];
  expect(sorts.map((s) => s.name), 'every list sorts by createdAt').to.include.members(['createdAt', '-createdAt']);
  const pageSize = (sort: ListSort): [number, number] => (!sort.field.nullable ? [4, 4] : sort.descending ? [2, 5] : [3, 4]);
  const oracles = await postgresOrders(resource, w.a, sorts);
  const walks = await Promise.all(sorts.map(async (sort) => ({
    sort,
    walk: await walkSorted(resource, w.a, w.keyA, sort.name, pageSize(sort), records.length, validate),
    oracle: oracles.get(sort.name)!,
  })));
  for (const { sort, walk, oracle } of walks) {
    expect(oracle, `Postgres has the planted records for sort=${sort.name}`).to.have.members(records.map((r) => r.id as string));
    expect(walk.ids, `sort=${sort.name} walked ${pageSize(sort).join(', then ')} a page`).to.deep.equal(oracle);
  }
  const listOrderIds = walks.find((x) => x.sort.name === 'createdAt')!.oracle;
  // A cursor is bound to its sort.
  const ascending = walks.find((x) => x.sort.name === 'createdAt')!.walk.firstCursor;
  expect(ascending, 'a first page of four records has a next page').to.be.a('string');
  expectErrorBody(await get(listPath(resource, w.a, { sort: '-createdAt', limit: '4', cursor: ascending! }), w.keyA), 400, 'cursor_mismatch', 'a createdAt cursor with sort=-createdAt');

  // (b) Each range field's four bounds at a value the records hold, one pair of bounds, and bounds that admit nothing.
  const rangeCases: { what: string; path: string; expected: string[] }[] = [];
  for (const [place, field] of resource.ranges.entries()) {
    const [low, middle, high] = values.get(field.name)!;
    const holders = (test: (stored: unknown) => boolean): string[] => listOrderIds.filter((id) => test(byId.get(id)![field.name]));
    for (const bound of RANGE_BOUNDS) {
      const text = boundText(field.type, middle, bound);
      rangeCases.push({
        what: `${rangeParameter(field.name, bound)}=${text}`,
        path: listPath(resource, w.a, { [rangeParameter(field.name, bound)]: text, limit: '100' }),
        expected: holders((stored) => inBound(field.type, stored, bound, middle)),
      });
    }
    // On the first field: brackets as they are (not percent-encoded), from the lowest value up to the highest, left out;
    // and bounds that admit nothing.
    if (place > 0) continue;
    const pair = `${field.name}[gte]=${encodeURIComponent(boundText(field.type, low, 'gte'))}&${field.name}[lt]=${encodeURIComponent(boundText(field.type, high, 'lt'))}`;
    rangeCases.push({
      what: pair,
      path: `${listPath(resource, w.a)}?${pair}&limit=100`,
      expected: holders((stored) => inBound(field.type, stored, 'gte', low) && inBound(field.type, stored, 'lt', high)),
    });
    rangeCases.push({
      what: `${field.name}[gt] above [lt]`,
      path: listPath(resource, w.a, { [rangeParameter(field.name, 'gt')]: boundText(field.type, high, 'gt'), [rangeParameter(field.name, 'lt')]: boundText(field.type, low, 'lt') }),
      expected: [],
    });
  }
  await expectAll(w.keyA, rangeCases.map(({ what, path, expected }) => ({
    path,
    check: (r: TestResponse) => {
      expect(idsOf(r), what).to.deep.equal(expected);
      expect(r.body.totalItems, what).to.equal(expected.length);
    },
  })));
  // The oracle's cuts are real: at the middle value, [gt] and [lte] split the records with a value.
  for (const field of resource.ranges) {
    const cut = rangeCases.filter((c) => c.what.startsWith(`${field.name}[gt]=`) || c.what.startsWith(`${field.name}[lte]=`));
    expect(cut.map((c) => c.expected.length > 0), `${field.name}: [gt] and [lte] at the middle value each keep some records`).to.deep.equal([true, true]);
  }

  // (d) Counts by every countable field are what the records hold; and with a range, what the records in it hold.
  if (resource.countable.length > 0) {
    const cases: { path: string; check: (r: TestResponse) => void }[] = [];
    for (const field of resource.countable) {
      const counts = await expectedCounts(resource, field, records);
      cases.push({ path: pathWithPairs(resource, w.a, [['by', field.name]], '/counts'), check: (r) => expectCounts(r, `counts by ${field.name}`, field.name, counts) });
    }
    const by = resource.countable[0]!;
    const from = values.get('createdAt')![1];
    const inRange = records.filter((record) => inBound('timestamp', record.createdAt, 'gte', from));
    expect(inRange.length, 'a createdAt range that keeps some records and not all').to.be.within(1, records.length - 1);
    const counts = await expectedCounts(resource, by, inRange);
    cases.push({
      path: pathWithPairs(resource, w.a, [['by', by.name], ['createdAt[gte]', queryValue(from)]], '/counts'),
      check: (r) => expectCounts(r, `counts by ${by.name}, createdAt[gte]`, by.name, counts),
    });
    await expectAll(w.keyA, cases);
  }
}

/**
 * 101 distinct valid values of the family's first exact filter that has so
 * many (a UUID or a string; an enum has too few): one more than any of takes.
 */
function manyValues(resource: Resource, schemas: Record<string, JsonSchema>): { filter: string; values: string[] }[] {
  const filter = resource.filters.find((f) => MATCH_KINDS[f.match].anyOf && (f.targets[0]!.type === 'uuid' || f.targets[0]!.type === 'string'));
  if (!filter) return [];
  const uuid = filter.targets[0]!.type === 'uuid';
  const values = Array.from({ length: 101 }, (_, i) => (uuid ? randomUUID() : `v${i}`));
  for (const value of values) expect(acceptsParameter(schemas[filter.name]!, value), `${filter.name}=${value}`).to.equal(true);
  return [{ filter: filter.name, values }];
}

describe(`every family of the registry (generated from resources/)${familiesInRunNote(families)}`, function () {
  this.timeout(60_000);

  before(async function () {
    // The first file of a worker makes the run's database here: on a slow, busy machine (six workers on two
    // cores in a trial) that took over 60 s. The limit only stops a hang.
    this.timeout(180_000);
    await reset();
    server = await startTestServer();
  });
  after(() => server.close());

  it('has the families to cover', () => {
    expect(families.length).to.be.greaterThan(0);
    expect(tenant, 'a tenant family').to.not.equal(undefined);
  });

  if (tenant) {
    describe(`${tenant.path} (tenant)`, () => {
      const validate = compileSchema(recordSchema(tenant));

      it(`GET /${tenant.path}/{slug} returns exactly the brand of the slug`, async () => {
        const { db } = await testDatabase();
        const brands = [await createBrand(), await createBrand()];
        const { key } = await createTestKey({ brands: brands.map((b) => b.slug) });
        const { key: onlyFirst } = await createTestKey({ brands: [brands[0]!.slug] });
        for (const brand of brands) {
          // Known values for every field but the id and unique ones (the slug the path names).
          const update: Record<string, unknown> = {};
          const known: Record<string, unknown> = {};
          for (const field of tenant.recordFields) {
            if (field.column === null || field.name === 'id' || field.unique) continue;
            const value = sampleValue(field, nextSequence(), nextTimestamp());
            update[field.column] = field.type === 'json' ? JSON.stringify(value) : value;
            known[field.name] = renderedValue(field.type, value);
          }
          if (Object.keys(update).length > 0) await db(tenant.table).where({ id: brand.id }).update(update);
          const row = (await db(tenant.table).where({ id: brand.id }).first()) as Record<string, unknown>;
          const expected = Object.fromEntries(
            tenant.recordFields.map((field) => [
              field.name,
              field.name in known ? known[field.name] : field.column ? renderedValue(field.type, row[field.column]) : undefined,
            ]),
          );
          expect(expected.id).to.equal(brand.id);
          const response = await get(`/${tenant.path}/${brand.slug}`, key);
          expect(response.status, response.text).to.equal(200);
          expect(validate(response.body), JSON.stringify(validate.errors)).to.equal(true);
          expect(response.body).to.deep.equal(expected);
        }
        expectErrorBody(await get(`/${tenant.path}/${brands[1]!.slug}`, onlyFirst), 401, 'unauthorized', 'a brand the key does not cover');
        expectErrorBody(await get(`/${tenant.path}/no-such-${randomUUID().slice(0, 8)}`, key), 404, 'not_found', 'an unknown slug');
      });
    });
  }

  for (const resource of familiesInRun(families)) {
    describe(`${resource.path} (${resource.scope})`, () => {
      const itemSchema = recordSchema(resource);
      const validateItem = compileSchema(itemSchema);
      const validateList = compileSchema(listEnvelopeSchema(itemSchema));
      const parameterSchemas = filterSchemas(resource);

      // Shared rows of this family, planted by an earlier test, would show in its lists.
      beforeEach(async () => {
        if (dirtyFamilies.has(resource.path)) await reset();
      });

      it('lists the brand\'s records with totalItems, each exactly its declared fields, and returns each by id, bare', async () => {
        const w = await world();
        // Fields read through a join: record 0 links each join to a row of brand A, record 1 to a row of brand B.
        const joinNames = [...new Set(resource.recordFields.flatMap((f) => (f.join ? [f.join] : [])))];
        const linkA: Record<string, unknown> = {};
        const linkB: Record<string, unknown> = {};
        const joinedA = new Map<string, PlantedRecord>();
        const sameFamilyRows: PlantedRecord[] = [];
        for (const name of joinNames) {
          const join = resource.joins[name]!;
          const holder = familyOfTable(registry, join.table);
          const a = await link(resource, join, w.a);
          Object.assign(linkA, a.overrides);
          joinedA.set(name, a.row);
          if (holder === resource) sameFamilyRows.push(a.row);
          if (holder.scope !== 'tenant') Object.assign(linkB, (await link(resource, join, w.b)).overrides);
        }
        // Made in neither list order nor id order, with two records sharing a createdAt (the id breaks the tie).
        const [t0, t1, t2] = [nextTimestamp(), nextTimestamp(), nextTimestamp()];
        const [u0, u1, u2, u3] = Array.from({ length: 4 }, () => randomUUID()).sort();
        const shape = [{ id: u2, createdAt: t1 }, { id: u3, createdAt: t2 }, { id: u0, createdAt: t2 }, { id: u1, createdAt: t0 }];
        const planted = await plant(resource.path, w.a.id, shape.length, (i) => ({ ...(i === 0 ? linkA : i === 1 ? linkB : {}), ...shape[i] }));
        await plant(resource.path, w.b.id, 1);
        const all = listOrder([...planted, ...sameFamilyRows]);

        const list = await get(listPath(resource, w.a, { limit: '100' }), w.keyA);
        expect(list.status, list.text).to.equal(200);
        expect(list.headers.get('content-type')).to.match(/^application\/json/);
        expect(validateList(list.body), JSON.stringify(validateList.errors)).to.equal(true);
        expect(idsOf(list)).to.deep.equal(all.map((r) => r.id));
        expect(list.body.totalItems).to.equal(all.length);
        expect(list.body.nextCursor).to.equal(null);
        expect(list.headers.get('link')).to.equal(null);

        const items = list.body.items as PlantedRecord[];
        for (const item of items) {
          expect(validateItem(item), `${JSON.stringify(item)}: ${JSON.stringify(validateItem.errors)}`).to.equal(true);
          expect(Object.keys(item).sort()).to.deep.equal(recordKeys(resource));
        }
        for (const [i, record] of planted.entries()) {
          const item = items.find((it) => it.id === record.id)!;
          for (const field of resource.recordFields) {
            if (field.column !== null) {
              expect(item[field.name], `${field.name} of record ${i}`).to.deep.equal(renderedValue(field.type, record[field.name]));
              continue;
            }
            const join = resource.joins[field.join!]!;
            const local = fieldByColumn(resource, join.localColumn, resource.path);
            if (i === 0) {
              const holder = familyOfTable(registry, join.table);
              const source = fieldByColumn(holder, field.sourceColumn, `${resource.path}.${field.name}`);
              expect(item[field.name], `${field.name} read through ${field.join}`).to.deep.equal(renderedValue(field.type, joinedA.get(field.join!)![source.name]));
            } else if (i === 1 && familyOfTable(registry, join.table).scope !== 'tenant') {
              expect(item[field.name], `${field.name} through a row of another brand`).to.equal(null);
            } else if (record[local.name] === null) {
              expect(item[field.name], `${field.name} with no ${local.name}`).to.equal(null);
            }
          }
        }

        for (const item of items) {
          const one = await get(recordPath(resource, w.a, item.id as string), w.keyA);
          expect(one.status, one.text).to.equal(200);
          expect(one.headers.get('content-type')).to.match(/^application\/json/);
          expect(one.body).to.deep.equal(item);
        }
        expectErrorBody(await get(recordPath(resource, w.a, randomUUID()), w.keyA), 404, 'not_found', 'an unknown id');

        // Pages of one follow each other in list order.
        const first = await get(listPath(resource, w.a, { limit: '1' }), w.keyA);
        expect(idsOf(first)).to.deep.equal([all[0]!.id]);
        expect(first.body.totalItems).to.equal(all.length);
        expect(first.body.nextCursor).to.be.a('string');
        expect(first.headers.get('link')).to.match(/; rel="next"$/);
        const second = await get(listPath(resource, w.a, { limit: '1', cursor: first.body.nextCursor as string }), w.keyA);
        expect(idsOf(second)).to.deep.equal([all[1]!.id]);
        expect(second.body.totalItems).to.equal(all.length);
      });

      for (const filter of resource.filters) {
        // The range bounds are checked together, in the questions test below.
        if (isRangeBound(filter)) continue;
        const labels = filter.targets.map((t) => t.label).join(', ');
        if (filter.match === 'exact') {
          it(`filter ${filter.name} (exact on ${labels}) returns exactly the matching records`, () => checkExactFilter(resource, filter, (item) => validateItem(item) as boolean));
        } else if (filter.match === 'since') {
          it(`filter ${filter.name} (since on ${labels}) returns the records at or after the instant`, () => checkSinceFilter(resource, filter, (item) => validateItem(item) as boolean));
        } else {
          for (const target of filter.targets) {
            it(`filter ${filter.name} (${filter.match} on ${labels}) matches ${target.label} case-insensitively, % and _ literal`, () =>
              checkContainsFilter(resource, filter, target, (item) => validateItem(item) as boolean));
          }
        }
      }

      it(`sorts by ${resource.sorts.map((f) => f.name).join(', ')} (both ways) walk in Postgres's order; bounds of ${resource.ranges.map((f) => f.name).join(', ')} admit what they should; an exact filter takes any of several values; counts by ${resource.countable.map((f) => f.name).join(', ') || 'nothing'} are what the records hold`, () =>
        checkQuestions(resource, (item) => validateItem(item) as boolean));

      for (const include of resource.includes) {
        const related = registry.get(include.resource);
        const validateRelated = compileSchema(recordSchema(related));
        const check = (item: unknown): boolean => validateRelated(item) as boolean;
        if (include.cardinality === 'many') {
          it(`include ${include.name} embeds exactly the ${related.path} whose ${include.remoteField} is the ${include.localField}, in list order, [] for none`, () =>
            checkToManyInclude(resource, include, check));
        } else {
          it(`include ${include.name} embeds the ${related.path} of ${include.localField}, null when there is none for the brand`, () =>
            checkToOneInclude(resource, include, check));
        }
      }

      for (const filter of resource.filters) {
        // The range bounds: one test for all of them, below.
        if (isRangeBound(filter)) continue;
        const schema = parameterSchemas[filter.name]! as JsonSchema;
        it(`refuses invalid values of filter ${filter.name} with 400 invalid_parameter naming it`, async () => {
          const w = await soloWorld();
          // The spec's rules for the filter's type, and whatever else its own schema refuses.
          const rules = specRules(filter);
          const bad = [...new Set([...rules.invalid, ...invalidParameterValues(schema)])];
          const good = validParameterValue(schema);
          await expectAll(w.key, [
            ...rules.valid.map((value) => ({
              path: listPath(resource, w.brand, { [filter.name]: value }),
              check: (r: TestResponse) => expect(r.status, `${filter.name}=${JSON.stringify(value)}: ${r.text}`).to.equal(200),
            })),
            ...bad.map((value) => ({
              path: listPath(resource, w.brand, { [filter.name]: value }),
              check: (r: TestResponse) => expectInvalidParameter(r, filter.name, `${filter.name}=${JSON.stringify(value)}`),
            })),
            {
              path: listPath(resource, w.brand, { [filter.name]: good }),
              check: (r: TestResponse) => expect(r.status, `${filter.name}=${good}: ${r.text}`).to.equal(200),
            },
            {
              // A filter is not a parameter of the single-record route.
              path: recordPath(resource, w.brand, randomUUID(), { [filter.name]: good }),
              check: (r: TestResponse) => expectInvalidParameter(r, filter.name, 'filter on the get route'),
            },
          ]);
        });
      }

      it('refuses invalid bounds of every range field, an undeclared sort and counts without a countable by, with 400 invalid_parameter naming each', async () => {
        const w = await soloWorld();
        const cases: { path: string; check: (r: TestResponse) => void }[] = [];
        const ok = (path: string, what: string) => ({ path, check: (r: TestResponse) => expect(r.status, `${what}: ${r.text}`).to.equal(200) });
        const bad = (path: string, parameter: string, what: string) => ({ path, check: (r: TestResponse) => expectInvalidParameter(r, parameter, what) });
        // Each field's four bounds share its type's rule, which the bounds of the questions test show it accepts. Here,
        // an invalid value on every bound of every field; on the first field of each type, every invalid value of the
        // type (each on one bound in turn) but for timestamps, whose rule createdSince's test above already goes through,
        // and the type's other valid forms (`+01:00`, `-3`, `12.50`).
        const typesSeen = new Set<string>();
        for (const [place, field] of resource.ranges.entries()) {
          const bounds = RANGE_BOUNDS.map((bound) => resource.filters.find((f) => f.name === rangeParameter(field.name, bound)));
          expect(bounds.map((f) => f?.match), `${field.name} has its four bounds as filters`).to.deep.equal([...RANGE_BOUNDS]);
          const names = (bounds as Filter[]).map((f) => f.name);
          const schema = parameterSchemas[names[0]!]! as JsonSchema;
          const rules = specRules(bounds[0]!);
          const invalid = [...new Set([...rules.invalid, ...invalidParameterValues(schema)])];
          expect(invalid.length, `invalid values for ${field.type}`).to.be.at.least(4);
          const first = !typesSeen.has(field.type);
          typesSeen.add(field.type);
          const chosen = first && field.type !== 'timestamp' ? invalid : RANGE_BOUNDS.map((_, i) => invalid[(place * 4 + i) % invalid.length]!);
          chosen.forEach((value, i) => {
            const name = names[(place + i) % names.length]!;
            cases.push(bad(listPath(resource, w.brand, { [name]: value }), name, `${name}=${JSON.stringify(value)}`));
          });
          if (first) rules.valid.forEach((value, i) => cases.push(ok(listPath(resource, w.brand, { [names[i % names.length]!]: value }), `${names[i % names.length]}=${value}`)));
          if (place === 0) {
            // A bound is one value: given twice, or on the single-record route, it is refused.
            const good = encodeURIComponent(rules.valid[0]!);
            cases.push(bad(`${listPath(resource, w.brand)}?${names[3]}=${good}&${names[3]}=${good}`, names[3]!, `${names[3]} twice`));
            cases.push(bad(recordPath(resource, w.brand, randomUUID(), { [names[1]!]: rules.valid[0]! }), names[1]!, `${names[1]} on the get route`));
          }
        }
        // Sorts: only the declared ones (the walks of the questions test take each of them), once, and only on the list.
        const sorts = [...listSorts(resource).keys()];
        const notSortable = resource.recordFields.find((f) => !sorts.includes(f.name))?.name ?? 'zz';
        for (const sort of [notSortable, '--createdAt', 'createdAt,id', ...(sorts.includes('updatedAt') ? [] : ['-updatedAt'])]) {
          cases.push({
            path: listPath(resource, w.brand, { sort }),
            check: (r) => {
              expectInvalidParameter(r, 'sort', `sort=${JSON.stringify(sort)}`);
              // The details name the sorts the family takes.
              for (const name of sorts) expect(r.text, `sort=${JSON.stringify(sort)}: details list ${name}`).to.include(name);
            },
          });
        }
        cases.push(bad(`${listPath(resource, w.brand)}?sort=createdAt&sort=createdAt`, 'sort', 'sort twice'));
        cases.push(bad(recordPath(resource, w.brand, randomUUID(), { sort: 'createdAt' }), 'sort', 'sort on the get route'));
        cases.push(bad(`/brands/${w.brand.slug}/${resource.path}/changes?sort=createdAt`, 'sort', 'sort on the changes route'));
        // Counts: `by` one countable field; none of cursor, limit, sort, include or fields; the filters as on the list.
        const counts = (pairs: readonly (readonly [string, string])[]): string => pathWithPairs(resource, w.brand, pairs, '/counts');
        const by = resource.countable[0];
        if (by) {
          const notCountable = resource.recordFields.find((f) => !resource.countable.includes(f))?.name ?? 'zz';
          cases.push(
            bad(counts([]), 'by', 'counts without by'),
            bad(counts([['by', 'zz']]), 'by', 'counts by an unknown field'),
            bad(counts([['by', notCountable]]), 'by', `counts by ${notCountable}, not countable`),
            bad(counts([['by', by.name], ['by', by.name]]), 'by', 'by twice'),
            bad(counts([['by', by.name], ['createdAt[gte]', 'yesterday']]), 'createdAt[gte]', 'counts with an invalid bound'),
            ...['cursor', 'limit', 'sort', 'include', 'fields'].map((name) => bad(counts([['by', by.name], [name, name === 'limit' ? '5' : name === 'sort' ? 'createdAt' : 'id']]), name, `counts with ${name}`)),
          );
        } else {
          cases.push({ path: counts([['by', 'id']]), check: (r) => expect(r.status, `a family with nothing countable has no counts: ${r.text}`).to.be.oneOf([400, 404]) });
        }
        await expectAll(w.key, cases);
      });

      it('refuses limit 0, 101 and x, an unknown parameter and a repeated one, naming each', async () => {
        const w = await soloWorld();
        const unknown = `zz${randomUUID().slice(0, 6)}`;
        const bad = (path: string, parameter: string, what: string) => ({
          path,
          check: (r: TestResponse) => expectInvalidParameter(r, parameter, what),
        });
        await expectAll(w.key, [
          ...['0', '101', 'x'].map((limit) => bad(listPath(resource, w.brand, { limit }), 'limit', `limit=${limit}`)),
          ...['100'].map((limit) => ({
            path: listPath(resource, w.brand, { limit }),
            check: (r: TestResponse) => expect(r.status, r.text).to.equal(200),
          })),
          bad(listPath(resource, w.brand, { [unknown]: '1' }), unknown, 'an unknown parameter'),
          bad(recordPath(resource, w.brand, randomUUID(), { [unknown]: '1' }), unknown, 'an unknown parameter by id'),
          bad(recordPath(resource, w.brand, randomUUID(), { limit: '5' }), 'limit', 'limit by id'),
          bad(`${listPath(resource, w.brand)}?limit=5&limit=5`, 'limit', 'limit twice'),
          // Only an exact filter takes several values (CONTRACT.md §8): up to 100 of them (the questions test asks any of).
          ...resource.filters.filter((filter) => !isRangeBound(filter) && !MATCH_KINDS[filter.match].anyOf).map((filter) => {
            const value = encodeURIComponent(validParameterValue(parameterSchemas[filter.name]! as JsonSchema));
            return bad(`${listPath(resource, w.brand)}?${filter.name}=${value}&${filter.name}=${value}`, filter.name, `${filter.name} twice`);
          }),
          ...manyValues(resource, parameterSchemas).flatMap(({ filter, values }) => [
            {
              path: `${listPath(resource, w.brand)}?${values.slice(0, 100).map((v) => `${filter}=${encodeURIComponent(v)}`).join('&')}`,
              check: (r: TestResponse) => expect(r.status, `${filter} 100 times: ${r.text}`).to.equal(200),
            },
            bad(`${listPath(resource, w.brand)}?${values.map((v) => `${filter}=${encodeURIComponent(v)}`).join('&')}`, filter, `${filter} 101 times`),
          ]),
        ]);
      });

      it('answers an unknown include with 400 unsupported_include, on the list and by id', async () => {
        const w = await soloWorld();
        const [record] = await plant(resource.path, w.brand.id);
        const unknown = `zz${randomUUID().slice(0, 6)}`;
        const names = [unknown, ...(resource.includes.length > 0 ? [`${resource.includes[0]!.name},${unknown}`] : [])];
        await expectAll(w.key, names.flatMap((include) => [
          {
            path: listPath(resource, w.brand, { include }),
            check: (r: TestResponse) => expectErrorBody(r, 400, 'unsupported_include', `list include=${include}`),
          },
          {
            path: recordPath(resource, w.brand, record!.id as string, { include }),
            check: (r: TestResponse) => expectErrorBody(r, 400, 'unsupported_include', `get include=${include}`),
          },
        ]));
      });

      it('answers a garbage cursor with 400 invalid_cursor', async () => {
        const w = await soloWorld();
        await plant(resource.path, w.brand.id, 2);
        const genuine = (await get(listPath(resource, w.brand, { limit: '1' }), w.key)).body.nextCursor as string;
        expect(genuine).to.be.a('string');
        const [payload, signature] = genuine.split('.');
        const tampered = `${payload}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
        const otherPayload = Buffer.from(Buffer.from(payload!, 'base64url').toString('utf8').replace(/"t":"\d/, '"t":"1')).toString('base64url');
        expect(otherPayload).to.not.equal(payload);
        const garbage = ['not-a-cursor', 'abc.def', `${genuine}.x`, `${genuine}x`, tampered, `${otherPayload}.${signature}`];
        await expectAll(w.key, garbage.map((cursor) => ({
          path: listPath(resource, w.brand, { cursor }),
          check: (r: TestResponse) => expectErrorBody(r, 400, 'invalid_cursor', `cursor=${cursor}`),
        })));
      });

      it('answers a malformed id with 400 invalid_parameter naming id', async () => {
        const w = await soloWorld();
        const ids = ['not-a-uuid', randomUUID().toUpperCase(), randomUUID().replace(/-/g, '')];
        await expectAll(w.key, ids.map((id) => ({
          path: `/brands/${w.brand.slug}/${resource.path}/${encodeURIComponent(id)}`,
          check: (r: TestResponse) => expectInvalidParameter(r, 'id', `id ${id}`),
        })));
      });

      // Last of the family: the shared rows it plants would show in the family's other lists.
      if (resource.scope === 'shared') {
        it('shows shared rows (no brand) to every brand, and never one brand\'s rows to another', async () => {
          const w = await world({ scoped: true });
          const mine = await plant(resource.path, w.a.id, 2);
          const theirs = await plant(resource.path, w.b.id, 2);
          const shared = await plant(resource.path, null, 2);
          const listA = await get(listPath(resource, w.a, { limit: '100' }), w.keyA);
          expect(idsOf(listA)).to.deep.equal(listOrder([...mine, ...shared]).map((r) => r.id));
          expect(listA.body.totalItems).to.equal(4);
          const listB = await get(listPath(resource, w.b, { limit: '100' }), w.keyB);
          expect(idsOf(listB)).to.deep.equal(listOrder([...theirs, ...shared]).map((r) => r.id));
          expect(listB.body.totalItems).to.equal(4);
          for (const [brand, key] of [[w.a, w.keyA], [w.b, w.keyB]] as const) {
            const one = await get(recordPath(resource, brand, shared[0]!.id as string), key);
            expect(one.status, one.text).to.equal(200);
            expect(one.body.id).to.equal(shared[0]!.id);
          }
          expectErrorBody(await get(recordPath(resource, w.a, theirs[0]!.id as string), w.keyA), 404, 'not_found', 'B\'s row for A');
          expectErrorBody(await get(recordPath(resource, w.b, mine[0]!.id as string), w.keyB), 404, 'not_found', 'A\'s row for B');
        });
      } else {
        it('never lists, counts or returns by id a record of another brand', async () => {
          const w = await world({ scoped: true });
          const mine = await plant(resource.path, w.a.id, 2);
          const theirs = await plant(resource.path, w.b.id, 3);
          const listA = await get(listPath(resource, w.a, { limit: '100' }), w.keyA);
          expect(idsOf(listA)).to.deep.equal(listOrder(mine).map((r) => r.id));
          expect(listA.body.totalItems).to.equal(2);
          const listB = await get(listPath(resource, w.b, { limit: '100' }), w.keyB);
          expect(idsOf(listB)).to.deep.equal(listOrder(theirs).map((r) => r.id));
          expect(listB.body.totalItems).to.equal(3);
          for (const record of theirs) {
            expectErrorBody(await get(recordPath(resource, w.a, record.id as string), w.keyA), 404, 'not_found', 'B\'s record for A');
          }
          const own = await get(recordPath(resource, w.b, theirs[0]!.id as string), w.keyB);
          expect(own.status, own.text).to.equal(200);
          expectErrorBody(await get(recordPath(resource, w.b, mine[0]!.id as string), w.keyB), 404, 'not_found', 'A\'s record for B');
        });
      }
    });
  }
});
