import { randomUUID } from 'node:crypto';
import { insertRecords, type RecordInput } from '../../src/db/insert-records.ts';
import { createKey } from '../../src/server/auth/key-admin.ts';
import { knownFamilies } from '../../src/server/auth/key-scope.ts';
import { resetDatabase, testDatabase } from './test-database.ts';

/** A brand with a fresh slug. */
export async function createBrand(slug = `brand-${randomUUID().slice(0, 8)}`, name = `Brand ${slug}`): Promise<{ id: string; slug: string }> {
  const { db, registry } = await testDatabase();
  const id = randomUUID();
  await insertRecords({ db, resource: registry.get('brands'), brandId: null, records: [{ id, slug, name }] });
  return { id, slug };
}

/** A key for some brands, or a global one; restricted to families and areas when given. */
export async function createTestKey(options: {
  brands?: readonly string[]; global?: boolean; expiresAt?: Date | null; families?: readonly string[]; areas?: readonly string[];
} = {}): Promise<{ id: string; key: string }> {
  const { db, registry } = await testDatabase();
  return createKey(db, {
    brands: options.brands ?? [], global: options.global ?? false, expiresAt: options.expiresAt ?? null,
    families: options.families ?? [], areas: options.areas ?? [], known: knownFamilies(registry),
  });
}

/** An empty database holding these brands, made in order, and no key (a test that makes its keys itself). */
export async function resetToBrands<const Slugs extends readonly string[]>(...slugs: Slugs): Promise<{ [K in keyof Slugs]: { id: string; slug: string } }> {
  await resetDatabase((await testDatabase()).db);
  const brands: { id: string; slug: string }[] = [];
  for (const slug of slugs) brands.push(await createBrand(slug));
  return brands as { [K in keyof Slugs]: { id: string; slug: string } };
}

/**
 * Where most tests start: an empty database holding one brand (`acme` unless
 * named) and a key for that brand alone.
 */
export async function resetToBrand(slug = 'acme'): Promise<{ brand: { id: string; slug: string }; key: string; keyId: string }> {
  const [brand] = await resetToBrands(slug);
  const { id: keyId, key } = await createTestKey({ brands: [slug] });
  return { brand, key, keyId };
}

/**
 * Inserts records of a family by API field names; each gets an id and, unless
 * given, a `createdAt` one second after the previous record of the run, so
 * list order is known.
 */
let tick = Date.parse('2026-03-01T09:00:00.000Z');
export function nextTimestamp(): string {
  tick += 1000;
  return new Date(tick).toISOString();
}

export async function insert(path: string, brandId: string | null, records: readonly RecordInput[]): Promise<Record<string, any>[]> {
  const { db, registry } = await testDatabase();
  const resource = registry.get(path);
  const names = new Set(resource.fields.map((f) => f.name));
  const full = records.map((record) => {
    const at = nextTimestamp();
    return {
      id: randomUUID(),
      ...(names.has('createdAt') ? { createdAt: at } : {}),
      ...(names.has('updatedAt') ? { updatedAt: at } : {}),
      ...record,
    };
  });
  await insertRecords({ db, resource, brandId, records: full });
  return full;
}
