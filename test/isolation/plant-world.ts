import { randomUUID } from 'node:crypto';
import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Field, Resource } from '../../src/engine/definition/resource.ts';
import { createBrand, createTestKey, nextTimestamp } from '../support/fixtures.ts';
import { columnFields, nextSequence, sampleValue } from '../support/record-factory.ts';
import { testDatabase } from '../support/test-database.ts';
import { insertionOrder, referenceEdges } from './reference-edges.ts';
import { listedFamilies } from '../support/registry-lookups.ts';

/**
 * The isolation world: brands A, B and C, four keys, and rows of every family
 * in each brand (and shared rows where the family allows them), planted in
 * one insert per family.
 *
 * Every family gets the same roles. Clean rows point their references at rows
 * of their own brand (or at a shared row); cross rows point them at the other
 * brand on purpose, as a buggy writer or malicious data could:
 * `ax` is A's record naming B's rows, `bx` is B's record naming A's rows. So a
 * parent of A has a child of B (`bx`) that claims it, and A's `ax` claims
 * parents of B: neither may ever surface for A.
 */

export type BrandName = 'A' | 'B' | 'C';
export type Owner = BrandName | 'shared';
export type Role = 'a1' | 'a2' | 'ax' | 'b1' | 'b2' | 'bx' | 'c1' | 's1' | 's2';
export type KeyName = 'keyA' | 'keyB' | 'keyAC' | 'global';

/** The brands each key may read. */
export const KEY_GRANTS: Readonly<Record<KeyName, readonly BrandName[]>> = {
  keyA: ['A'],
  keyB: ['B'],
  keyAC: ['A', 'C'],
  global: ['A', 'B', 'C'],
};
export const KEY_NAMES = Object.keys(KEY_GRANTS) as KeyName[];
export const BRAND_NAMES: readonly BrandName[] = ['A', 'B', 'C'];

interface RoleSpec {
  readonly role: Role;
  readonly owner: Owner;
  /** The role of the rows its references name in every other family. */
  readonly pointsAt: Role;
  /** References to a shared family name its shared row `s1` instead. */
  readonly viaShared: boolean;
}

/** In creation order: the brands interleave, so `since` filters cut across both. */
const ROLES: readonly RoleSpec[] = [
  { role: 'b1', owner: 'B', pointsAt: 'b1', viaShared: false },
  { role: 'a1', owner: 'A', pointsAt: 'a1', viaShared: false },
  { role: 'b2', owner: 'B', pointsAt: 'b2', viaShared: true },
  { role: 'a2', owner: 'A', pointsAt: 'a2', viaShared: true },
  { role: 'bx', owner: 'B', pointsAt: 'a1', viaShared: false },
  { role: 'ax', owner: 'A', pointsAt: 'b1', viaShared: false },
  { role: 'c1', owner: 'C', pointsAt: 'c1', viaShared: false },
  { role: 's1', owner: 'shared', pointsAt: 's1', viaShared: false },
  { role: 's2', owner: 'shared', pointsAt: 's2', viaShared: false },
];

/** A family that names itself points a clean row at its sibling, not at itself. */
const SIBLING: Readonly<Record<Role, Role>> = { a1: 'a2', a2: 'a1', ax: 'ax', b1: 'b2', b2: 'b1', bx: 'bx', c1: 'c1', s1: 's2', s2: 's1' };

export interface Brand {
  readonly id: string;
  readonly slug: string;
}

/** One planted row: its family, role and owner, and its values by API field name (hidden fields included). */
export interface PlantedRow {
  readonly family: string;
  /** `brand` for a row of the tenant family (the brand itself). */
  readonly role: Role | 'brand';
  readonly owner: Owner;
  /** The brand_id written: null for a shared row (and for a brand). */
  readonly brandId: string | null;
  readonly record: Readonly<Record<string, unknown>>;
}

export interface World {
  readonly brands: Readonly<Record<BrandName, Brand>>;
  /** A slug no brand has. */
  readonly unknownSlug: string;
  readonly keys: Readonly<Record<KeyName, string>>;
  /** Every row of a family, in creation order. */
  rows(family: string): readonly PlantedRow[];
  row(family: string, role: Role): PlantedRow | undefined;
  /** The row with this id, in any family (ids are random UUIDs, so unique across families). */
  byId(id: string): PlantedRow | undefined;
  /** The brand behind a brand id. */
  brandName(brandId: string): BrandName | undefined;
}

/** The value of one column field for a role (references are filled in a second pass). */
function plainValue(field: Field, owner: Owner, role: Role, at: string): unknown {
  if (field.name === 'id') return randomUUID();
  if (field.type === 'string') return `${field.name}~${role}~${nextSequence()}`;
  if (field.type === 'enum') {
    // Each brand holds a value of its own where the enum allows, so "a value only B holds" exists.
    const values = field.values ?? [];
    const index = owner === 'B' ? 1 : owner === 'C' ? 2 : 0;
    return values[index % values.length];
  }
  return sampleValue(field, nextSequence(), at);
}

/**
 * Plants the world on an empty database: brands and keys through the
 * fixtures, then every family in foreign-key order, one insert each.
 */
export async function plantWorld(registry: Registry): Promise<World> {
  const { db } = await testDatabase();
  const tag = randomUUID().slice(0, 6);
  const brands: Record<BrandName, Brand> = {
    A: await createBrand(`iso-a-${tag}`),
    B: await createBrand(`iso-b-${tag}`),
    C: await createBrand(`iso-c-${tag}`),
  };
  const keys: Record<KeyName, string> = {
    keyA: (await createTestKey({ brands: [brands.A.slug] })).key,
    keyB: (await createTestKey({ brands: [brands.B.slug] })).key,
    keyAC: (await createTestKey({ brands: [brands.A.slug, brands.C.slug] })).key,
    global: (await createTestKey({ global: true })).key,
  };
  const brandOf = (owner: Owner): string | null => (owner === 'shared' ? null : brands[owner].id);

  const rowsByFamily = new Map<string, PlantedRow[]>();
  const tenant = registry.resources.find((resource) => resource.scope === 'tenant');
  if (tenant) {
    // The brands' own rows, read back by field name, so joins and includes to the tenant family have something to match.
    const stored = (await db(tenant.table).whereIn('id', BRAND_NAMES.map((name) => brands[name].id))) as Record<string, unknown>[];
    rowsByFamily.set(tenant.path, BRAND_NAMES.map((name) => {
      const row = stored.find((r) => r.id === brands[name].id)!;
      const record = Object.fromEntries(columnFields(tenant).map((f) => [f.name, row[f.column!]]));
      return { family: tenant.path, role: 'brand', owner: name, brandId: null, record };
    }));
  }

  // First pass: every value but the references, so every row has its id before anything names it.
  const families = listedFamilies(registry);
  for (const resource of families) {
    const fields = columnFields(resource);
    const specs = ROLES.filter((spec) => spec.owner !== 'shared' || resource.scope === 'shared');
    rowsByFamily.set(resource.path, specs.map((spec) => {
      const at = nextTimestamp();
      const record = Object.fromEntries(fields.map((field) => [field.name, plainValue(field, spec.owner, spec.role, at)]));
      return { family: resource.path, role: spec.role, owner: spec.owner, brandId: brandOf(spec.owner), record };
    }));
  }

  // Second pass: each reference names the row its role points at.
  for (const resource of families) {
    const rows = rowsByFamily.get(resource.path)!;
    for (const edge of referenceEdges(registry, resource)) {
      const target = registry.get(edge.target);
      for (const row of rows) {
        const spec = ROLES.find((s) => s.role === row.role)!;
        const value = referencedValue({ target, spec, self: resource, rowsByFamily, targetField: edge.targetField });
        (row.record as Record<string, unknown>)[edge.field] = value;
      }
    }
  }

  for (const resource of insertionOrder(registry)) {
    if (resource.scope === 'tenant') continue;
    const fields = columnFields(resource);
    const rows = rowsByFamily.get(resource.path)!.map((row) => {
      const out: Record<string, unknown> = { brand_id: row.brandId };
      for (const field of fields) {
        const value = row.record[field.name];
        if (value === null && !field.nullable) throw new Error(`${resource.path}.${field.name} (${row.role}): no value to plant in a non-nullable field`);
        out[field.column!] = field.type === 'json' && value !== null ? JSON.stringify(value) : value;
      }
      return out;
    });
    await db(resource.table).insert(rows);
  }

  const byId = new Map<string, PlantedRow>();
  for (const rows of rowsByFamily.values()) for (const row of rows) byId.set(String(row.record.id), row);
  return {
    brands,
    unknownSlug: `iso-none-${tag}`,
    keys,
    rows: (family) => rowsByFamily.get(family) ?? [],
    row: (family, role) => rowsByFamily.get(family)?.find((row) => row.role === role),
    byId: (id) => byId.get(id),
    brandName: (brandId) => BRAND_NAMES.find((name) => brands[name].id === brandId),
  };
}

/** The value a reference of a row holds: the target field of the row its role points at, or null. */
function referencedValue({ target, spec, self, rowsByFamily, targetField }: {
  target: Resource;
  spec: RoleSpec;
  self: Resource;
  rowsByFamily: ReadonlyMap<string, PlantedRow[]>;
  targetField: string;
}): unknown {
  const targets = rowsByFamily.get(target.path) ?? [];
  if (target.scope === 'tenant') {
    // A reference to the brand names the brand of the role it points at; a shared row names none.
    const pointed = ROLES.find((s) => s.role === spec.pointsAt)!;
    return targets.find((row) => row.owner === pointed.owner)?.record[targetField] ?? null;
  }
  // A shared row may only name shared rows: a brand's row would be invisible to every other brand.
  if (spec.owner === 'shared' && target.scope !== 'shared') return null;
  let role = spec.viaShared && target.scope === 'shared' ? 's1' : spec.pointsAt;
  if (target.path === self.path && role === spec.role) role = SIBLING[role];
  return targets.find((row) => row.role === role)?.record[targetField] ?? null;
}
