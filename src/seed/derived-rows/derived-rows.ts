import type { Registry } from '../../engine/definition/registry.ts';
import type { WrittenRows } from '../put.ts';
import type { SeedContext } from '../seed-context.ts';
import { derivationOrder } from './derivation-order.ts';
import { derivedRowCount, deriveRecords, linkTargetOf } from './derive-records.ts';

/**
 * Demo rows for every family the stories left without a row the demo brand
 * can see: adding a family to `resources/` gives it demo rows (and so an
 * OpenAPI example) with no seed code. They are written last, after every
 * story, so a new family changes no id or timestamp of the stories' rows.
 */

/** When the derived rows are stamped: after the last story of the season. */
export const DERIVED_AT = '2026-04-20T09:00:00.000Z';

/**
 * Ids of a family's rows a brand can see (its own and those of no brand), or
 * with `brandId` null only those of no brand, in the order written. The
 * tenant family's one visible row is the brand itself.
 */
export function visibleIds({ registry, written, path, brandId }: { registry: Registry; written: WrittenRows; path: string; brandId: string | null }): string[] {
  if (registry.get(path).scope === 'tenant') return brandId === null ? [] : [brandId];
  return written.of(path).filter((row) => row.brandId === null || row.brandId === brandId).map((row) => row.id);
}

/**
 * The brand a derived family's rows are written for: none for a shared
 * family whose every link can point at rows of no brand (shared rows every
 * brand sees must not point at one brand's rows); the demo brand otherwise.
 */
function ownerOf({ registry, written, path, brandId }: { registry: Registry; written: WrittenRows; path: string; brandId: string }): string | null {
  const resource = registry.get(path);
  if (resource.scope !== 'shared') return brandId;
  const targets = resource.fields.map((field) => linkTargetOf(resource, field)).filter((target) => target !== null && target !== path);
  const allShared = targets.every((target) => visibleIds({ registry, written, path: target!, brandId: null }).length > 0);
  return allShared ? null : brandId;
}

/** Writes the derived rows; returns the families it wrote them for, in the order written. */
export async function seedDerivedRows({ put, clock, newId, brandId, registry, written }: SeedContext & {
  registry: Registry;
  written: WrittenRows;
}): Promise<string[]> {
  const missing = registry.resources
    .filter((resource) => resource.scope !== 'tenant' && visibleIds({ registry, written, path: resource.path, brandId }).length === 0)
    .map((resource) => resource.path);
  if (missing.length === 0) return [];
  clock.jumpTo(DERIVED_AT);
  const order = derivationOrder({ registry, paths: missing });
  for (const path of order) {
    const owner = ownerOf({ registry, written, path, brandId });
    const resource = registry.get(path);
    const poolOf = (target: string): string[] => visibleIds({ registry, written, path: target, brandId: owner });
    await put(path, owner, deriveRecords({ resource, count: derivedRowCount({ resource, poolOf }), poolOf, at: DERIVED_AT, newId }));
  }
  return order;
}
