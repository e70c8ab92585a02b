import type { Resource } from '../../src/engine/definition/resource.ts';
import { BRAND_NAMES, KEY_GRANTS, KEY_NAMES } from './plant-world.ts';
import { assertNone, label, Problems, query, sendAll, slugOf, type Matrix, type PathBrand, type Probe } from './probe.ts';

/** The tenant route `GET /brands/{brand}`: a key reads the brands it holds and no other. */
export function defineTenantChecks(tenant: Resource, matrix: () => Matrix): void {
  it(`GET /${tenant.path}/{brand}: each key reads exactly the brands it holds (plain and fields=id), 401 for another brand, 404 for an unknown slug (also through the key cache)`, async () => {
    const m = matrix();
    const problems = new Problems();
    // On the test server, then twice through the key cache (the second round from cached grants).
    const cases = [false, true, true].flatMap((cached) => ([...BRAND_NAMES, 'unknown'] as PathBrand[]).flatMap((brand) =>
      KEY_NAMES.flatMap((key) => ([{}, { fields: 'id' }] as Record<string, string>[]).map((params) => ({
        brand,
        sparse: 'fields' in params,
        probe: { path: `/${tenant.path}/${slugOf(m.world, brand)}${query(params)}`, key, cached } as Probe,
      })))));
    const responses = await sendAll(m, cases.map((c) => c.probe));
    cases.forEach(({ brand, sparse, probe }, i) => {
      const where = label(tenant.path, probe);
      const response = responses[i]!;
      if (brand === 'unknown') problems.status(where, response, 404, 'not_found');
      else if (!KEY_GRANTS[probe.key].includes(brand)) problems.status(where, response, 401, 'unauthorized');
      else if (problems.status(where, response, 200)) {
        const { id, slug } = m.world.brands[brand];
        const expected = sparse ? { id } : { id, slug };
        const actual = sparse ? response.body : { id: response.body?.id, slug: response.body?.slug };
        if (JSON.stringify(actual) !== JSON.stringify(expected)) problems.add(where, `answered ${response.text.slice(0, 300)}, expected brand ${brand} (${id})`);
      }
    });
    assertNone(problems);
  });
}
