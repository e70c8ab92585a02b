import type { Resource } from '../../src/engine/definition/resource.ts';
import { KEY_GRANTS, type BrandName, type KeyName } from './plant-world.ts';
import { assertNone, describeRecord, label, Problems, recordPath, sendAll, type Matrix, type PathBrand, type Probe } from './probe.ts';
import { checkRecord } from './record-checks.ts';
import { canSee } from './visibility.ts';

/** Every path brand with every key that may read it: the record route must answer by the path's brand, whatever else the key may read. */
const READERS: readonly { brand: BrandName; key: KeyName }[] = (['A', 'B', 'C'] as const).flatMap((brand) =>
  (Object.keys(KEY_GRANTS) as KeyName[]).filter((key) => KEY_GRANTS[key].includes(brand)).map((key) => ({ brand, key })));

/** The single-record route: an id never reaches a record of another brand. */
export function defineGetChecks(resource: Resource, matrix: () => Matrix): void {
  it('get by id: every planted record is 200 under a brand that may see it and 404 under any other, with every key that may read the path', async () => {
    const m = matrix();
    const problems = new Problems();
    const include = resource.includes.map((i) => i.name).join(',');
    const cases: { brand: PathBrand; id: string; probe: Probe; expect: 'record' | 404 | 401 }[] = [];
    for (const row of m.world.rows(resource.path)) {
      const id = String(row.record.id);
      for (const { brand, key } of READERS) {
        const visible = canSee(resource, row, m.world.brands[brand].id);
        cases.push({ brand, id, probe: { path: recordPath(m.world, resource, brand, id), key }, expect: visible ? 'record' : 404 });
        // Asking for includes must not turn a 404 into a record (with the key of the path's brand alone).
        if (!visible && include && (key === 'keyA' || key === 'keyB')) cases.push({ brand, id, probe: { path: recordPath(m.world, resource, brand, id, { include }), key }, expect: 404 });
      }
      // The record's own brand, with a key that lacks it: 401 before any lookup; an unknown brand: 404.
      if (row.owner !== 'shared') {
        const outsider: KeyName = row.owner === 'A' ? 'keyB' : 'keyA';
        cases.push({ brand: row.owner, id, probe: { path: recordPath(m.world, resource, row.owner, id), key: outsider }, expect: 401 });
      }
      cases.push({ brand: 'unknown', id, probe: { path: recordPath(m.world, resource, 'unknown', id), key: 'global' }, expect: 404 });
    }
    const responses = await sendAll(m, cases.map((c) => c.probe));
    cases.forEach(({ brand, id, probe, expect }, i) => {
      const where = `${label(resource.path, probe)} (${describeRecord(m.world, id)})`;
      const response = responses[i]!;
      if (expect === 401) problems.status(where, response, 401, 'unauthorized');
      else if (expect === 404) {
        if (response.status === 200) problems.add(where, `LEAK: answered 200 with ${describeRecord(m.world, response.body?.id)}`);
        else problems.status(where, response, 404, 'not_found');
      } else if (problems.status(where, response, 200)) {
        if (response.body?.id !== id) problems.add(where, `answered ${describeRecord(m.world, response.body?.id)}`);
        else checkRecord({ problems, where, matrix: m, resource, brandId: m.world.brands[brand as BrandName].id, body: response.body });
      }
    });
    assertNone(problems);
  });
}
