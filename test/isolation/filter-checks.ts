import type { Filter, Resource } from '../../src/engine/definition/resource.ts';
import { RANGE_BOUNDS } from '../../src/engine/definition/range-filters.ts';
import type { BrandName, KeyName, Role } from './plant-world.ts';
import { assertNone, describeRecord, label, listPath, Problems, sendAll, type Matrix, type Probe } from './probe.ts';
import { checkList } from './record-checks.ts';
import { filterSelects, valuesHeld, visibleRows } from './visibility.ts';

/**
 * Each side filters by values the other side holds: A by what B's rows hold
 * (B's text, ids of B's rows, B's joined rows' columns, B's instants) and by
 * what B's cross row holds (ids of A's rows), plus C's and its own as a
 * control that the filter selects anything at all; B the same way round.
 */
const SIDES: readonly { brand: BrandName; key: KeyName; roles: readonly Role[] }[] = [
  { brand: 'A', key: 'keyA', roles: ['b1', 'b2', 'bx', 'c1', 's1', 'a1'] },
  { brand: 'B', key: 'keyB', roles: ['a1', 'ax', 'b1'] },
];

/** Filters: no value, whoever holds it, selects a record of another brand, and a joined-column filter only matches the brand's own joined rows. */
export function defineFilterChecks(resource: Resource, matrix: () => Matrix): void {
  for (const filter of resource.filters) {
    // The range bounds (four a field) are probed a family at a time, by range-checks.ts: a strict bound need not select the value's holder.
    if (isRangeBound(filter)) continue;
    const targets = filter.targets.map((t) => t.label).join(', ');
    it(`filter ${filter.name} (${filter.match} on ${targets}) selects exactly the path brand's matching records, whoever holds the value`, async () => {
      const m = matrix();
      const problems = new Problems();
      const cases = SIDES.flatMap(({ brand, key, roles }) =>
        filterValues(m, resource, filter, roles).map(({ value, from, role }) => ({
          brand,
          value,
          from,
          role,
          probe: { path: listPath(m.world, resource, brand, { [filter.name]: value, limit: '100' }), key } as Probe,
        })));
      const responses = await sendAll(m, cases.map((c) => c.probe));
      cases.forEach(({ brand, value, from, probe }, i) => {
        const brandId = m.world.brands[brand].id;
        const expected = visibleRows(m, resource, brandId)
          .filter((row) => filterSelects(m, { resource, filter, value, row, brandId }))
          .map((row) => String(row.record.id));
        const where = `${label(resource.path, probe)} (value held by ${from})`;
        checkList({ problems, where, matrix: m, resource, brandId, response: responses[i]!, expected });
      });
      // The control: A's own value selects A's own record, so an empty answer cannot pass for isolation.
      const control = cases.find((c) => c.brand === 'A' && c.role === 'a1');
      if (control) {
        const ids = (responses[cases.indexOf(control)]!.body?.items ?? []).map((item: { id: string }) => item.id) as string[];
        if (ids.length === 0) problems.add(label(resource.path, control.probe), 'A\'s own value selected nothing');
      }
      assertNone(problems);
    });
  }
}

/** The values to try on one side, each with the record that holds it; a case-insensitive search also tries B's text upper-cased. */
function filterValues(m: Matrix, resource: Resource, filter: Filter, roles: readonly Role[]): { value: string; from: string; role: string }[] {
  const held = valuesHeld(m, { resource, filter, roles }).map(({ value, from }) => ({ value, from: describeRecord(m.world, from.record.id), role: from.role }));
  const upper = filter.match === 'contains-ci'
    ? held.filter((h) => h.role === 'b1').map((h) => ({ value: h.value.toUpperCase(), from: `${h.from}, upper-cased`, role: h.role }))
    : [];
  return [...held, ...upper].filter((h) => h.value.length > 0 && h.value.length <= 255);
}

/** Whether a filter is one of the engine's range bounds (`<field>[gte]` ...). */
export const isRangeBound = (filter: Filter): boolean => (RANGE_BOUNDS as readonly string[]).includes(filter.match);
