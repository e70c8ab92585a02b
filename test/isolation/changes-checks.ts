import type { Resource } from '../../src/engine/definition/resource.ts';
import { BRAND_NAMES, KEY_GRANTS, KEY_NAMES } from './plant-world.ts';
import { assertNone, label, listPath, Problems, sendAll, type Matrix, type PathBrand, type Probe } from './probe.ts';
import { visibleRows } from './visibility.ts';

const changesPath = (m: Matrix, resource: Resource, brand: PathBrand, params: Readonly<Record<string, string>>): string =>
  listPath(m.world, resource, brand, params).replace(`/${resource.path}`, `/${resource.path}/changes`);

/** The changes feed of a family: who may read which brand, a full sync is exactly the brand's records, and a token stays with its brand. */
export function defineChangesChecks(resource: Resource, matrix: () => Matrix): void {
  it('changes: every key\'s full sync is exactly its path brand\'s records (and shared rows), as the list gives them; 401 and 404 as on lists; a token of another brand is cursor_mismatch', async () => {
    const m = matrix();
    const problems = new Problems();
    const pairs = ([...BRAND_NAMES, 'unknown'] as PathBrand[]).flatMap((brand) => KEY_NAMES.map((key) => ({ brand, key })));
    const probes = pairs.map(({ brand, key }) => ({ path: changesPath(m, resource, brand, { limit: '1000' }), key }) as Probe);
    const lists = pairs.map(({ brand, key }) => ({ path: listPath(m.world, resource, brand, { limit: '100' }), key }) as Probe);
    const [responses, listed] = [await sendAll(m, probes), await sendAll(m, lists)];
    pairs.forEach(({ brand, key }, i) => {
      const where = label(resource.path, probes[i]!);
      const response = responses[i]!;
      if (brand === 'unknown') problems.status(where, response, 404, 'not_found');
      else if (!KEY_GRANTS[key].includes(brand)) problems.status(where, response, 401, 'unauthorized');
      else if (problems.status(where, response, 200)) {
        const brandId = m.world.brands[brand].id;
        const items = response.body.items as { change: string; id: string; record: { id: string } }[];
        if (response.body.nextCursor !== null) problems.add(where, 'a full sync of the planted world should fit one page');
        if (items.some((item) => item.change !== 'upsert')) problems.add(where, 'a full sync gave a delete');
        problems.ids({ where, matrix: m, resource, brandId, actual: items.map((item) => item.id), expected: visibleRows(m, resource, brandId).map((row) => String(row.record.id)) });
        const byId = new Map((listed[i]!.body.items as { id: string }[]).map((record) => [record.id, JSON.stringify(record)]));
        for (const item of items) if (byId.get(item.id) !== JSON.stringify(item.record)) problems.add(where, `record ${item.id} differs from the list's`);
      }
    });
    const tokenOfA = responses[pairs.findIndex((p) => p.brand === 'A' && p.key === 'keyAC')]!.body.syncToken as string;
    const mismatch = await sendAll(m, [{ path: changesPath(m, resource, 'C', { syncToken: tokenOfA }), key: 'keyAC' }]);
    problems.status(`[${resource.path}] A's token on C`, mismatch[0]!, 400, 'cursor_mismatch');
    assertNone(problems);
  });
}
