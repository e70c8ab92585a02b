import type { Filter, Resource } from '../../src/engine/definition/resource.ts';
import { rangeParameter, type RangeBound } from '../../src/engine/definition/range-filters.ts';
import { queryValue, renderedValue } from '../support/record-factory.ts';
import type { BrandName, KeyName, Role } from './plant-world.ts';
import { assertNone, describeRecord, label, listPath, Problems, sendAll, type Matrix, type Probe } from './probe.ts';
import { checkList } from './record-checks.ts';
import { filterSelects, visibleRows } from './visibility.ts';

/**
 * Where each side bounds its list: A at its own a2 (made after B's b1 and
 * b2, before B's bx), B at A's a1 (made between B's b1 and b2). `[gte]` and
 * `[lt]` at one value admit every row between them, so the other brand's
 * rows are in range of some bound whatever the values; as the world's values
 * grow with the order rows are made in, they are in range of every bound.
 */
const SIDES: readonly { brand: BrandName; key: KeyName; roles: readonly Role[] }[] = [
  { brand: 'A', key: 'keyA', roles: ['a2'] },
  { brand: 'B', key: 'keyB', roles: ['a1'] },
];

/**
 * The bounds probed on a family's range field, by its place: an inclusive
 * and a strict one, `[gte]` and `[lt]` on the first, `[lte]` and `[gt]` on
 * the second, and so on, so a family with two range fields (every one with
 * `updatedAt`) has all four probed. The four share one statement shape
 * (compile/match-kinds.ts) but for the operator, which is checked for every
 * bound of every field in test/registry/every-family.test.ts.
 */
const boundsOf = (place: number): readonly RangeBound[] => (place % 2 === 0 ? ['gte', 'lt'] : ['lte', 'gt']);

/**
 * The range bounds of a family (CONTRACT.md §8), all in one test: bounds of
 * every range field, at values of both brands, select exactly the path
 * brand's records the bound admits. A bound compares a column of the
 * family's own table, so what it could leak is the other brand's rows in
 * range, which these values put there: a strict bound at A's own value
 * admits A's records beyond it and never B's.
 */
export function defineRangeChecks(resource: Resource, matrix: () => Matrix): void {
  if (resource.ranges.length === 0) return;
  it(`range bounds (${resource.ranges.map((f, i) => boundsOf(i).map((b) => `${f.name}[${b}]`).join(', ')).join(', ')}) select exactly the path brand's records in range, at values either brand holds`, async () => {
    const m = matrix();
    const problems = new Problems();
    const cases: { brand: BrandName; filter: Filter; field: string; role: Role; value: string; from: string; probe: Probe }[] = [];
    for (const [place, field] of resource.ranges.entries()) {
      for (const bound of boundsOf(place)) {
        const name = rangeParameter(field.name, bound);
        const filter = resource.filters.find((f) => f.name === name && f.match === bound);
        if (!filter) {
          problems.add(`[${resource.path}]`, `no filter ${name} with match ${bound}`);
          continue;
        }
        for (const { brand, key, roles } of SIDES) {
          for (const role of roles) {
            const row = m.world.row(resource.path, role);
            const stored = row?.record[field.name];
            if (stored === null || stored === undefined) {
              problems.add(`[${resource.path}] ${role}.${field.name}`, 'the world holds no value to bound at');
              continue;
            }
            const value = queryValue(renderedValue(field.type, stored));
            cases.push({ brand, filter, field: field.name, role, value, from: describeRecord(m.world, row!.record.id), probe: { path: listPath(m.world, resource, brand, { [name]: value, limit: '100' }), key } });
          }
        }
      }
    }
    const responses = await sendAll(m, cases.map((c) => c.probe));
    const cuts = new Map<string, boolean>();
    cases.forEach(({ brand, filter, field, value, from, probe }, i) => {
      const brandId = m.world.brands[brand].id;
      const visible = visibleRows(m, resource, brandId);
      const expected = visible.filter((row) => filterSelects(m, { resource, filter, value, row, brandId })).map((row) => String(row.record.id));
      checkList({ problems, where: `${label(resource.path, probe)} (value held by ${from})`, matrix: m, resource, brandId, response: responses[i]!, expected });
      if (brand === 'A' && expected.length > 0 && expected.length < visible.length) cuts.set(field, true);
    });
    // The controls: A's own value is in its own [gte] and [lte], and on A's side each field's bounds cut its records somewhere,
    // so that neither "nothing" nor "everything" passes for isolation.
    const own = String(m.world.row(resource.path, 'a2')?.record.id);
    cases.forEach(({ brand, filter, role, field, probe }, i) => {
      if (brand !== 'A' || role !== 'a2' || (filter.match !== 'gte' && filter.match !== 'lte')) return;
      const ids = ((responses[i]!.body?.items ?? []) as { id: unknown }[]).map((item) => String(item.id));
      if (!ids.includes(own)) problems.add(label(resource.path, probe), `A's own record a2 is not in its own ${field} bound`);
    });
    for (const field of resource.ranges) {
      if (!cuts.get(field.name)) problems.add(`[${resource.path}] ${field.name}`, 'no bound at these values keeps some of A\'s records and not all: the check would prove nothing');
    }
    assertNone(problems);
  });
}
