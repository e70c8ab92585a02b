import type { Resource } from '../../src/engine/definition/resource.ts';
import { createBrand, createTestKey } from '../support/fixtures.ts';
import { makeRecords, type PlantedRecord } from '../support/record-factory.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';
import { listedFamilies } from '../support/registry-lookups.ts';

/**
 * The data every fuzz file reads: two brands (`home`, which the keys read,
 * and `other`, which exists but the scoped key may not read), a key scoped to
 * `home`, a global key, and a few records of every family planted in `home`
 * (and two in `other`), so lists are not all empty.
 *
 * Planting every family takes seconds, so the fuzz files share one planting:
 * the first file resets the database and plants; a later one plants again
 * only when another file has reset the database in between. The fuzz tests
 * only read, so what one file leaves, the next can use.
 */
export interface FuzzData {
  readonly home: { readonly id: string; readonly slug: string };
  readonly other: { readonly id: string; readonly slug: string };
  /** A key for `home` alone. */
  readonly key: string;
  readonly globalKey: string;
  /** Every family with a list, in registry order. */
  readonly families: readonly Resource[];
  /** The tenant family (the brand itself, read by slug). */
  readonly tenant: Resource;
  /** The records planted in `home` for each family, in list order among themselves (parents planted for other families add rows). */
  readonly planted: ReadonlyMap<string, readonly PlantedRecord[]>;
  /** The records planted in `other` for each family (two: enough for a second page). */
  readonly plantedOther: ReadonlyMap<string, readonly PlantedRecord[]>;
}

/** Records planted per family in `home`. */
const PER_FAMILY = 3;

let current: Promise<FuzzData> | null = null;

export async function fuzzData(): Promise<FuzzData> {
  if (current) {
    const data = await current.catch(() => null);
    if (data && (await stillPlanted(data))) return data;
  }
  current = plant();
  return current;
}

async function stillPlanted(data: FuzzData): Promise<boolean> {
  const { db } = await testDatabase();
  // A reset truncates every table at once: the brand row tells.
  return (await db('brands').where({ id: data.home.id }).first()) !== undefined;
}

async function plant(): Promise<FuzzData> {
  const { db, registry } = await testDatabase();
  await resetDatabase(db);
  const tag = Date.now().toString(36);
  const home = await createBrand(`home-${tag}`);
  const other = await createBrand(`other-${tag}`);
  const { key } = await createTestKey({ brands: [home.slug] });
  const { key: globalKey } = await createTestKey({ global: true });
  const tenant = registry.resources.find((resource) => resource.scope === 'tenant');
  if (!tenant) throw new Error('the registry has no tenant family');
  const families = listedFamilies(registry);
  const planted = new Map<string, readonly PlantedRecord[]>();
  const plantedOther = new Map<string, readonly PlantedRecord[]>();
  for (const resource of families) {
    planted.set(resource.path, await makeRecords({ registry, path: resource.path, brandId: home.id, count: PER_FAMILY }));
    plantedOther.set(resource.path, await makeRecords({ registry, path: resource.path, brandId: other.id, count: 2 }));
  }
  return { home, other, key, globalKey, families, tenant, planted, plantedOther };
}

/** The API path of a family's list in a brand (the slug as given: encode it first when it needs encoding). */
export const listPath = (brandSlug: string, resource: Resource): string => `/api/public/v1/brands/${brandSlug}/${resource.path}`;
