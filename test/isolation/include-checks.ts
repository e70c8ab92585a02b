import type { Include, Resource } from '../../src/engine/definition/resource.ts';
import type { BrandName, KeyName } from './plant-world.ts';
import { assertNone, label, listPath, Problems, recordPath, sendAll, type Matrix, type Probe } from './probe.ts';
import { checkList, checkRecord } from './record-checks.ts';
import { includedIds, visibleRows } from './visibility.ts';

const SIDES: readonly { brand: BrandName; key: KeyName }[] = [
  { brand: 'A', key: 'keyA' },
  { brand: 'B', key: 'keyB' },
];

/**
 * Includes: on each side's list and on each of its records by id, an include
 * embeds only records the path's brand may see. A's cross record names B's
 * rows, so its to-one includes must be null; B's cross record claims A's rows
 * as its parents, so A's to-many includes must leave it out.
 */
export function defineIncludeChecks(resource: Resource, matrix: () => Matrix): void {
  for (const include of resource.includes) {
    it(`include ${include.name} (${include.cardinality === 'one' ? 'to-one' : 'to-many'} ${include.resource}) embeds only what the path brand may see, on lists and by id`, async () => {
      const m = matrix();
      const problems = new Problems();
      const cases = SIDES.flatMap(({ brand, key }) => {
        const brandId = m.world.brands[brand].id;
        const list = { brand, id: null, probe: { path: listPath(m.world, resource, brand, { include: include.name, limit: '100' }), key } as Probe };
        const records = visibleRows(m, resource, brandId).map((row) => ({
          brand,
          id: String(row.record.id),
          probe: { path: recordPath(m.world, resource, brand, String(row.record.id), { include: include.name }), key } as Probe,
        }));
        return [list, ...records];
      });
      const responses = await sendAll(m, cases.map((c) => c.probe));
      cases.forEach(({ brand, id, probe }, i) => {
        const brandId = m.world.brands[brand].id;
        const where = label(resource.path, probe);
        const response = responses[i]!;
        if (id === null) {
          const expected = visibleRows(m, resource, brandId).map((row) => String(row.record.id));
          checkList({ problems, where, matrix: m, resource, brandId, response, expected, includes: [include] });
        } else if (problems.status(where, response, 200)) {
          checkRecord({ problems, where, matrix: m, resource, brandId, body: response.body, includes: [include] });
        }
      });
      expectSomethingEmbedded(m, resource, include, problems);
      assertNone(problems);
    });
  }
}

/**
 * A control on the world: A's clean record must have something to embed, so
 * that "nothing of B's came back" is not just "nothing came back".
 */
function expectSomethingEmbedded(m: Matrix, resource: Resource, include: Include, problems: Problems): void {
  const brandId = m.world.brands.A.id;
  const row = m.world.row(resource.path, 'a1')!;
  if (includedIds(m, { resource, include, row, brandId }).length === 0) {
    problems.add(`[${resource.path}] include ${include.name}`, 'the world gives A\'s record a1 nothing to embed: the check would prove nothing');
  }
}
