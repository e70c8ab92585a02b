import type { Field, Filter, Resource } from '../../src/engine/definition/resource.ts';
import { rangeParameter } from '../../src/engine/definition/range-filters.ts';
import { queryValue, renderedValue } from '../support/record-factory.ts';
import type { TestResponse } from '../support/test-server.ts';
import { KEY_GRANTS, type BrandName, type KeyName } from './plant-world.ts';
import { assertNone, describeRecord, label, listPath, Problems, sendAll, type Matrix, type PathBrand, type Probe } from './probe.ts';
import { canSee, filterSelects, valuesHeld, visibleRows } from './visibility.ts';

const countsPath = (m: Matrix, resource: Resource, brand: PathBrand, params: Readonly<Record<string, string>>): string =>
  listPath(m.world, resource, brand, params).replace(`/${resource.path}?`, `/${resource.path}/counts?`);

/** Who asks whose counts: an answer for each brand, a refusal of each kind (401 from A's and from B's side, 404). */
const PAIRS: readonly (readonly [PathBrand, KeyName])[] = [
  ['A', 'keyA'], ['A', 'keyAC'], ['A', 'global'], ['A', 'keyB'],
  ['B', 'keyB'], ['B', 'keyA'], ['B', 'keyAC'],
  ['C', 'keyAC'], ['C', 'keyB'],
  ['unknown', 'global'],
];

interface CountsCase {
  readonly brand: PathBrand;
  readonly by: Field;
  /** Filters of the request, by name, with the value given. */
  readonly filters: readonly { filter: Filter; value: string }[];
  readonly probe: Probe;
  /** The same key on the same brand's list, for a refusal that must be the list's. */
  readonly list?: Probe;
}

/**
 * Counts by value (CONTRACT.md §8): every key counts exactly the records of
 * its path brand (and shared rows) that the list would give, by every
 * countable field; with a filter, only the brand's matching records; a key
 * that lacks the brand gets the list's 401, an unknown brand the list's 404.
 */
export function defineCountsChecks(resource: Resource, matrix: () => Matrix): void {
  if (resource.countable.length === 0) return;
  const fields = resource.countable.map((field) => field.name).join(', ');
  it(`counts by ${fields}: every key counts exactly its path brand's records (and shared rows), filtered too; a brand it lacks is 401 and an unknown brand 404, as on the list (also through the key cache)`, async () => {
    const m = matrix();
    const problems = new Problems();
    const [first] = resource.countable as [Field, ...Field[]];
    const cases: CountsCase[] = [];
    const add = (brand: PathBrand, key: KeyName, by: Field, filters: CountsCase['filters'] = [], cached = false): void => {
      const params = { by: by.name, ...Object.fromEntries(filters.map(({ filter, value }) => [filter.name, value])) };
      const refused = brand === 'unknown' || !KEY_GRANTS[key].includes(brand);
      cases.push({
        brand,
        by,
        filters,
        probe: { path: countsPath(m, resource, brand, params), key, cached },
        ...(refused ? { list: { path: listPath(m.world, resource, brand, { limit: '100' }), key, cached } } : {}),
      });
    };
    // By the first field: each brand with a key of its own and a key of a brand beside it (A with the global key too), an
    // unknown brand; a refusal and an answer again through the key cache. (Every key on every brand is list-checks.ts's.)
    for (const [brand, key] of PAIRS) add(brand, key, first);
    add('A', 'keyB', first, [], true);
    add('A', 'keyA', first, [], true);
    // Every other field, from both sides.
    for (const by of resource.countable.slice(1)) for (const [brand, key] of [['A', 'keyA'], ['B', 'keyB']] as const) add(brand, key, by);
    // Filtered: a strict createdAt bound at the other brand's value, and each filter on a joined column at a value of B's joined row (and A's).
    const after = resource.filters.find((f) => f.name === rangeParameter('createdAt', 'gt'));
    if (after) {
      const at = (role: 'a1' | 'b1'): string => queryValue(renderedValue('timestamp', m.world.row(resource.path, role)!.record.createdAt));
      add('A', 'keyA', first, [{ filter: after, value: at('b1') }]);
      add('B', 'keyB', first, [{ filter: after, value: at('a1') }]);
    }
    for (const filter of resource.filters.filter((f) => f.targets.some((t) => t.join !== null))) {
      for (const { value } of valuesHeld(m, { resource, filter, roles: ['b1', 'a1'] })) {
        if (value.length > 0 && value.length <= 255) add('A', 'keyA', first, [{ filter, value }]);
      }
    }

    const probes = cases.flatMap((c) => (c.list ? [c.probe, c.list] : [c.probe]));
    const answers = await sendAll(m, probes);
    const responseOf = (probe: Probe): TestResponse => answers[probes.indexOf(probe)]!;
    let answered = 0;
    for (const { brand, by, filters, probe, list } of cases) {
      const where = label(resource.path, probe);
      const response = responseOf(probe);
      if (list) {
        const listed = responseOf(list);
        if (brand === 'unknown') problems.status(where, response, 404, 'not_found');
        else problems.status(where, response, 401, 'unauthorized');
        if (response.status !== listed.status || response.text !== listed.text) {
          problems.add(where, `answered ${response.status} ${response.text.slice(0, 200)}, the list ${listed.status} ${listed.text.slice(0, 200)}`);
        }
        continue;
      }
      if (!problems.status(where, response, 200)) continue;
      const brandId = m.world.brands[brand as BrandName].id;
      const rows = visibleRows(m, resource, brandId).filter((row) => filters.every(({ filter, value }) => filterSelects(m, { resource, filter, value, row, brandId })));
      if (rows.length > 0) answered += 1;
      checkCounts({ problems, where, m, resource, brandId, by, rows: rows.map((row) => row.record), response });
    }
    if (answered === 0) problems.add(`[${resource.path}]`, 'no counts request had a record to count: the check would prove nothing');
    assertNone(problems);
  });
}

/** The body must be exactly `{ by, counts, otherItems: 0, totalItems }` with the visible records' counts; a value only another brand's records hold is a LEAK. */
function checkCounts({ problems, where, m, resource, brandId, by, rows, response }: {
  problems: Problems;
  where: string;
  m: Matrix;
  resource: Resource;
  brandId: string;
  by: Field;
  rows: readonly Readonly<Record<string, unknown>>[];
  response: TestResponse;
}): void {
  const expected = new Map<string, number>();
  for (const record of rows) {
    const key = JSON.stringify(renderedValue(by.type, record[by.name]));
    expected.set(key, (expected.get(key) ?? 0) + 1);
  }
  const body = response.body as { by?: unknown; counts?: { value: unknown; count: number }[]; otherItems?: unknown; totalItems?: unknown };
  const keys = Object.keys(body ?? {}).sort().join(',');
  if (keys !== 'by,counts,otherItems,totalItems') problems.add(where, `a counts body has exactly by, counts, otherItems and totalItems, not ${keys}`);
  if (body?.by !== by.name) problems.add(where, `by is ${JSON.stringify(body?.by)}`);
  if (body?.totalItems !== rows.length) problems.add(where, `totalItems is ${JSON.stringify(body?.totalItems)}, expected ${rows.length}`);
  if (body?.otherItems !== 0) problems.add(where, `otherItems is ${JSON.stringify(body?.otherItems)}, expected 0`);
  const counts = Array.isArray(body?.counts) ? body.counts : [];
  const actual = new Map(counts.map((entry) => [JSON.stringify(entry.value), entry.count]));
  if (actual.size !== counts.length) problems.add(where, `a value is counted twice: ${JSON.stringify(counts)}`);
  for (const [value, count] of actual) {
    const wanted = expected.get(value) ?? 0;
    if (count === wanted) continue;
    // The records past what the brand may see that hold the value: what a leak would have counted.
    const others = m.world.rows(resource.path)
      .filter((row) => !canSee(resource, row, brandId) && JSON.stringify(renderedValue(by.type, row.record[by.name])) === value)
      .map((row) => describeRecord(m.world, row.record.id));
    const leak = count > wanted && others.length > 0 ? `LEAK: counted records the brand must never see, such as ${others.slice(0, 3).join('; ')}` : 'wrong count';
    problems.add(where, `${by.name}=${value} counted ${count}, expected ${wanted} (${leak})`);
  }
  for (const [value, count] of expected) if (!actual.has(value)) problems.add(where, `${by.name}=${value} missing (expected ${count})`);
  for (let i = 1; i < counts.length; i += 1) {
    if (counts[i]!.count > counts[i - 1]!.count) problems.add(where, `counts are not largest first: ${JSON.stringify(counts)}`);
  }
}
