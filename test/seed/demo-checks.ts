import type { Knex } from 'knex';
import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { listedFamilies } from '../support/registry-lookups.ts';

/**
 * Checks of a seeded demo database that hold for every family, read from the
 * registry alone: run on the real registry (`demo-seed.test.ts`) and on one
 * with families added (`derived-rows/derived-rows.test.ts`).
 */

export type Row = Record<string, unknown>;

export interface DemoDatabase {
  readonly db: Knex;
  readonly registry: Registry;
}

/** The families with rows of their own brand (all but the tenant family). */
export function families({ registry }: DemoDatabase): Resource[] {
  return listedFamilies(registry);
}

/** The rows of a family that a brand sees: its own, and for a shared family the rows of no brand. */
export function visibleRows({ db }: DemoDatabase, resource: Resource, brandId: string): Promise<Row[]> {
  if (resource.scope === 'tenant') return db(resource.table).where('id', brandId).select('*');
  const query = db(resource.table).select('*');
  return resource.scope === 'shared'
    ? query.where((q) => q.where('brand_id', brandId).orWhereNull('brand_id'))
    : query.where('brand_id', brandId);
}

/** The ids each family shows a brand, loaded once per family. */
export function idIndex(demo: DemoDatabase, brandId: string): (path: string) => Promise<Set<string>> {
  const cache = new Map<string, Promise<Set<string>>>();
  return (path) => {
    let ids = cache.get(path);
    if (!ids) {
      ids = visibleRows(demo, demo.registry.get(path), brandId).then((rows) => new Set(rows.map((row) => String(row.id))));
      cache.set(path, ids);
    }
    return ids;
  };
}

/**
 * Reference fields of a brand's rows that point at no row the brand can see
 * (`broken`), how many were followed, and the families that declare a
 * reference but never fill one (`unused`).
 */
export async function followReferences(demo: DemoDatabase, brandId: string): Promise<{ broken: string[]; checked: number; unused: string[] }> {
  const ids = idIndex(demo, brandId);
  const broken: string[] = [];
  let checked = 0;
  const declaring = new Set<string>();
  const using = new Set<string>();
  for (const resource of families(demo)) {
    const references = resource.fields.filter((field) => field.references !== null && field.column !== null);
    if (references.length > 0) declaring.add(resource.path);
    if (references.length === 0) continue;
    for (const row of await visibleRows(demo, resource, brandId)) {
      for (const field of references) {
        const value = row[field.column!];
        if (value === null || value === undefined) continue;
        checked += 1;
        using.add(resource.path);
        if (!(await ids(field.references!)).has(String(value))) broken.push(`${resource.path}.${field.name} = ${String(value)} (-> ${field.references})`);
      }
    }
  }
  return { broken, checked, unused: [...declaring].filter((path) => !using.has(path)) };
}

/**
 * To-one includes of a brand's rows that lead to no row (`broken`), and the
 * include fields without a foreign key that no row fills (`unlinked`).
 */
export async function followToOneIncludes(demo: DemoDatabase, brandId: string): Promise<{ broken: string[]; unlinked: string[] }> {
  const ids = idIndex(demo, brandId);
  const broken: string[] = [];
  const unlinked: string[] = [];
  for (const resource of families(demo)) {
    const toOne = resource.includes.filter((include) => include.cardinality === 'one');
    if (toOne.length === 0) continue;
    const rows = await visibleRows(demo, resource, brandId);
    for (const include of toOne) {
      const field = resource.fields.find((f) => f.name === include.localField)!;
      let linked = 0;
      for (const row of rows) {
        const value = row[field.column!];
        if (value === null || value === undefined) continue;
        linked += 1;
        if (!(await ids(include.resource)).has(String(value))) broken.push(`${resource.path}.${field.name} = ${String(value)} (include ${include.name})`);
      }
      if (field.references === null && linked === 0) unlinked.push(`${resource.path}.${field.name}`);
    }
  }
  return { broken, unlinked };
}

/**
 * Rows created before a row they point at through a to-one include (`early`),
 * how many pairs were compared, and the first and last `created_at` of all.
 */
export async function creationOrder(demo: DemoDatabase): Promise<{ early: string[]; compared: number; first: string; last: string }> {
  const { db, registry } = demo;
  const createdAt = new Map<string, number>();
  const rowsByPath = new Map<string, Row[]>();
  for (const resource of registry.resources) {
    const rows = await db(resource.table).select('*');
    rowsByPath.set(resource.path, rows);
    for (const row of rows) createdAt.set(String(row.id), new Date(row.created_at as string).getTime());
  }
  const early: string[] = [];
  let compared = 0;
  for (const resource of families(demo)) {
    for (const include of resource.includes.filter((i) => i.cardinality === 'one')) {
      const field = resource.fields.find((f) => f.name === include.localField)!;
      // Two records that point at each other cannot both come second: where one side has no foreign key
      // (a dimension group's default curve, made after the group it belongs to), that side is the later one.
      const pointsBack = include.resource !== resource.path
        && registry.get(include.resource).includes.some((i) => i.cardinality === 'one' && i.resource === resource.path);
      if (pointsBack && field.references === null) continue;
      for (const row of rowsByPath.get(resource.path)!) {
        const parent = row[field.column!] === null ? undefined : createdAt.get(String(row[field.column!]));
        if (parent === undefined) continue;
        compared += 1;
        if (new Date(row.created_at as string).getTime() < parent) early.push(`${resource.path} ${String(row.id)} before its ${include.name}`);
      }
    }
  }
  const times = [...createdAt.values()];
  return { early, compared, first: new Date(Math.min(...times)).toISOString(), last: new Date(Math.max(...times)).toISOString() };
}
