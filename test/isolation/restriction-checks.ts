import type { Registry } from '../../src/engine/definition/registry.ts';
import { AREAS } from '../../src/engine/definition/normalize-resource.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import type { Area } from '../../src/engine/definition/resource-definition.ts';
import { createKey } from '../../src/server/auth/key-admin.ts';
import type { TestResponse } from '../support/test-server.ts';
import { testDatabase } from '../support/test-database.ts';
import { assertNone, listPath, Problems, recordPath, type Matrix } from './probe.ts';

/**
 * Keys restricted to families and areas (CONTRACT.md §4) on every route of
 * every family: a key of brand A restricted to the family itself, to its
 * area, and to another area (rotated over the families so every area is
 * refused somewhere). Each reads exactly what its restriction declares:
 * the list, a record, the changes feed (a waited call too), counts and each
 * include are answered when allowed and 401 `family_not_allowed` when not,
 * never a smaller answer; the brand's own record is open to all three; the
 * brand's check comes first (401 `brand_not_allowed` on brand B); and a
 * refusal holds through the key cache after an answer cached the grant.
 */

interface RestrictedKey {
  readonly label: string;
  readonly key: string;
  readonly families: readonly string[];
  readonly areas: readonly Area[];
}

const madeKeys = new WeakMap<object, Map<string, Promise<RestrictedKey>>>();

/** A key of brand A restricted as given, made once per world. */
function restrictedKey({ matrix, registry, families = [], areas = [] }: {
  matrix: Matrix;
  registry: Registry;
  families?: readonly string[];
  areas?: readonly Area[];
}): Promise<RestrictedKey> {
  const made = madeKeys.get(matrix.world) ?? new Map<string, Promise<RestrictedKey>>();
  madeKeys.set(matrix.world, made);
  const label = `a key of brand A restricted to ${[...families.map((f) => `family ${f}`), ...areas.map((a) => `area ${a}`)].join(' and ')}`;
  if (!made.has(label)) {
    made.set(label, (async () => {
      const { db } = await testDatabase();
      const known = { families: registry.resources.map((r) => r.path), areas: AREAS };
      const { key } = await createKey(db, { brands: [matrix.world.brands.A.slug], global: false, expiresAt: null, families, areas, known });
      return { label, key, families, areas };
    })());
  }
  return made.get(label)!;
}

const allows = (key: RestrictedKey, resource: Resource): boolean => key.families.includes(resource.path) || key.areas.includes(resource.area);

/** Every route of the family, as brand A's key asks it, and the status an allowed key gets. */
function routesOf(matrix: Matrix, resource: Resource): { route: string; path: string; allowed: number }[] {
  const row = matrix.world.rows(resource.path).find((r) => r.owner === 'A') ?? matrix.world.rows(resource.path).find((r) => r.owner === 'shared');
  const changes = listPath(matrix.world, resource, 'A', { limit: '1' }).replace(`/${resource.path}?`, `/${resource.path}/changes?`);
  const counts = listPath(matrix.world, resource, 'A', { by: resource.countable[0]?.name ?? 'id' }).replace(`/${resource.path}?`, `/${resource.path}/counts?`);
  return [
    { route: 'list', path: listPath(matrix.world, resource, 'A', { limit: '1' }), allowed: 200 },
    ...(row ? [{ route: 'get', path: recordPath(matrix.world, resource, 'A', String(row.record.id)), allowed: 200 }] : []),
    { route: 'changes', path: changes, allowed: 200 },
    // A waited call with a token that is not one: the family's check comes before the parameters' (400 when allowed).
    { route: 'changes with wait', path: changes.replace('limit=1', 'syncToken=not-a-token&wait=1'), allowed: 400 },
    // A family that counts nothing answers its counts with 400 naming `by`, after the family's check.
    { route: 'counts', path: counts, allowed: resource.countable.length > 0 ? 200 : 400 },
  ];
}

/** An answer as allowed (the route's status) or refused (401 family_not_allowed, no challenge), as a problem when not. */
function judge({ problems, where, response, allowed, status }: { problems: Problems; where: string; response: TestResponse; allowed: boolean; status: number }): void {
  if (allowed) {
    problems.status(where, response, status);
    return;
  }
  if (problems.status(where, response, 401, 'unauthorized')) {
    if (response.body?.details?.reason !== 'family_not_allowed') problems.add(where, `refused for ${JSON.stringify(response.body?.details)}, not family_not_allowed`);
    if (response.headers.get('www-authenticate') !== null) problems.add(where, 'a refusal of the family carries WWW-Authenticate');
  }
}

export function defineRestrictionChecks(resource: Resource, matrix: () => Matrix, registry: Registry): void {
  it('restricted keys: the family itself, its area and another area read every route and include as declared, 401 family_not_allowed otherwise (also through the key cache)', async () => {
    const m = matrix();
    const problems = new Problems();
    const index = registry.resources.indexOf(resource);
    const others = AREAS.filter((area) => area !== resource.area);
    const keys = await Promise.all([
      restrictedKey({ matrix: m, registry, families: [resource.path] }),
      restrictedKey({ matrix: m, registry, areas: [resource.area] }),
      restrictedKey({ matrix: m, registry, areas: [others[index % others.length]!] }),
    ]);
    const ask = (path: string, key: RestrictedKey): Promise<TestResponse> => m.server.request(path, { key: key.key });
    for (const key of keys) {
      const allowed = allows(key, resource);
      for (const { route, path, allowed: status } of routesOf(m, resource)) {
        judge({ problems, where: `[${resource.path}] ${route} with ${key.label}`, response: await ask(path, key), allowed, status });
      }
      for (const include of resource.includes) {
        const target = registry.resources.find((r) => r.path === include.resource)!;
        const where = `[${resource.path}] list with include=${include.name} (${target.path}, area ${target.area}) with ${key.label}`;
        judge({ problems, where, response: await ask(listPath(m.world, resource, 'A', { include: include.name, limit: '1' }), key), allowed: allowed && allows(key, target), status: 200 });
      }
      problems.status(`[${resource.path}] the brand's own record with ${key.label}`, await ask(`/brands/${m.world.brands.A.slug}`, key), 200);
      const other = await ask(listPath(m.world, resource, 'B', { limit: '1' }), key);
      if (problems.status(`[${resource.path}] list of brand B with ${key.label}`, other, 401, 'unauthorized') && other.body?.details?.reason !== 'brand_not_allowed') {
        problems.add(`[${resource.path}] list of brand B with ${key.label}`, `refused for ${JSON.stringify(other.body?.details)}: the brand is checked first`);
      }
    }
    // Through the key cache: an answer caches the grant with its restriction, and the refusal still holds.
    const [own, , elsewhere] = keys;
    const list = listPath(m.world, resource, 'A', { limit: '1' });
    for (const key of [own!, elsewhere!, own!, elsewhere!]) {
      judge({ problems, where: `[${resource.path}] list through the key cache with ${key.label}`, response: await m.cachedServer.request(list, { key: key.key }), allowed: allows(key, resource), status: 200 });
    }
    assertNone(problems);
  });
}
