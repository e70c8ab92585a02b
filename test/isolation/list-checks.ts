import type { Resource } from '../../src/engine/definition/resource.ts';
import { queryValue, renderedValue } from '../support/record-factory.ts';
import { BRAND_NAMES, KEY_GRANTS, KEY_NAMES, type BrandName, type KeyName } from './plant-world.ts';
import { assertNone, label, listPath, Problems, recordPath, sendAll, type Matrix, type PathBrand, type Probe } from './probe.ts';
import { checkList, checkRecord } from './record-checks.ts';
import { fieldByColumn } from '../support/registry-lookups.ts';
import { filterSelects, visibleRows } from './visibility.ts';

/** The brand each single-brand key reads, for checks made from both sides. */
const OWN_KEY: readonly { brand: BrandName; key: KeyName }[] = [
  { brand: 'A', key: 'keyA' },
  { brand: 'B', key: 'keyB' },
];

/** Lists of a family: who may read which brand, and that nothing of another brand comes back. */
export function defineListChecks(resource: Resource, matrix: () => Matrix): void {
  it('lists: every key reads exactly its path brand\'s records (and shared rows), totalItems included; a brand it lacks is 401, an unknown brand 404 (also through the key cache)', async () => {
    const m = matrix();
    const problems = new Problems();
    // Every pair on the test server, then through the key cache (whose grants the tenant checks and earlier families have warmed).
    const pairs = ([...BRAND_NAMES, 'unknown'] as PathBrand[]).flatMap((brand) => KEY_NAMES.map((key) => ({ brand, key })));
    const cases = [false, true].flatMap((cached) =>
      pairs.map(({ brand, key }) => ({ brand, probe: { path: listPath(m.world, resource, brand, { limit: '100' }), key, cached } as Probe })));
    const responses = await sendAll(m, cases.map((c) => c.probe));
    cases.forEach(({ brand, probe }, i) => {
      const where = label(resource.path, probe);
      const response = responses[i]!;
      // CONTRACT.md §4: the brand must exist (404) before the key is asked whether it covers it (401).
      if (brand === 'unknown') problems.status(where, response, 404, 'not_found');
      else if (!KEY_GRANTS[probe.key].includes(brand)) problems.status(where, response, 401, 'unauthorized');
      else {
        const brandId = m.world.brands[brand].id;
        const expected = visibleRows(m, resource, brandId).map((row) => String(row.record.id));
        checkList({ problems, where, matrix: m, resource, brandId, response, expected });
      }
    });
    assertNone(problems);
  });

  it('fields=id, since filters (alone, together, and with every include) and a sort change nothing about whose records come back', async () => {
    const m = matrix();
    const problems = new Problems();
    const since = resource.filters.filter((filter) => filter.match === 'since');
    // B's instant, in the middle of the interleaved rows: it keeps some records of each brand, so the cut is not all or nothing.
    const instant = (name: string): string => {
      const filter = since.find((f) => f.name === name)!;
      const target = filter.targets[0]!;
      const field = fieldByColumn(resource, target.column);
      return queryValue(renderedValue(target.type, m.world.row(resource.path, 'b2')!.record[field.name]));
    };
    const include = resource.includes.map((i) => i.name).join(',');
    const variants: Record<string, string>[] = [
      { fields: 'id' },
      ...since.map((filter) => ({ [filter.name]: instant(filter.name) })),
      ...since.map((filter) => ({ fields: 'id', [filter.name]: instant(filter.name), ...(include ? { include } : {}) })),
      ...(since.length === 0 && include ? [{ fields: 'id', include }] : []),
      // A sort reads another index (for a shared family, two ranges of it merged): still the brand's rows alone.
      // Every sort builds its statement alike (compile/keyset-page.ts): the family's last, descending, stands for them.
      ...resource.sorts.slice(-1).map((field) => ({ sort: `-${field.name}` })),
    ];
    const cases = OWN_KEY.flatMap(({ brand, key }) =>
      variants.map((params) => ({ brand, params, probe: { path: listPath(m.world, resource, brand, { ...params, limit: '100' }), key } as Probe })));
    const responses = await sendAll(m, cases.map((c) => c.probe));
    cases.forEach(({ brand, params, probe }, i) => {
      const brandId = m.world.brands[brand].id;
      const filters = since.filter((filter) => filter.name in params);
      const expected = visibleRows(m, resource, brandId)
        .filter((row) => filters.every((filter) => filterSelects(m, { resource, filter, value: params[filter.name]!, row, brandId })))
        .map((row) => String(row.record.id));
      const includes = params.include ? resource.includes : [];
      checkList({ problems, where: label(resource.path, probe), matrix: m, resource, brandId, response: responses[i]!, expected, includes, sparse: params.fields ? ['id'] : null });
    });

    // By id: fields=id trims A's own records, and finds nothing of B's under A's path.
    const brandA = m.world.brands.A.id;
    const byId = m.world.rows(resource.path).map((row) => ({ row, probe: { path: recordPath(m.world, resource, 'A', String(row.record.id), { fields: 'id' }), key: 'keyA' } as Probe }));
    const single = await sendAll(m, byId.map((c) => c.probe));
    byId.forEach(({ row, probe }, i) => {
      const where = label(resource.path, probe);
      const visible = visibleRows(m, resource, brandA).includes(row);
      if (!visible) problems.status(where, single[i]!, 404, 'not_found');
      else if (problems.status(where, single[i]!, 200)) checkRecord({ problems, where, matrix: m, resource, brandId: brandA, body: single[i]!.body, sparse: ['id'] });
    });
    assertNone(problems);
  });
}
