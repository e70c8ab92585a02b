import type { Field, Resource } from '../../src/engine/definition/resource.ts';

/**
 * The families a per-family matrix (the isolation matrix, every-family,
 * every-parameter, the query plans, the fuzz sweeps) covers in this run of
 * the suite.
 *
 * Every one, unless TEST_FAMILY_SAMPLE=1. The CI gate sets it on its run on
 * the embedded database only: there the matrices would repeat, family by
 * family, what its run on Postgres proves for every family with the same SQL
 * compiled from the same definitions, and they were a quarter of that run's
 * CPU on a gate that must stay under ten minutes. What can differ between
 * the two databases is how a value of each kind travels and compares (PGlite
 * parses and orders in WebAssembly), not which family holds it; so the
 * sample is a few families that together hold every kind of thing a
 * definition declares (`definitionKinds`): each field type, nullable or not,
 * each filter match on each type, joins to either scope, includes of either
 * cardinality, sorts, ranges and counts on each type, each scope and area.
 * A plain `npm test` runs every family on whichever database it is given.
 */
export function familiesInRun<R extends Resource>(families: readonly R[]): readonly R[] {
  return process.env.TEST_FAMILY_SAMPLE === '1' ? coveringFamilies(families) : families;
}

/** A title's note on what `familiesInRun` kept, empty when it kept every family. */
export function familiesInRunNote(families: readonly Resource[]): string {
  const kept = familiesInRun(families);
  return kept.length === families.length ? '' : ` (TEST_FAMILY_SAMPLE=1: ${kept.length} of ${families.length} families, holding every kind a definition declares)`;
}

const fieldKind = (field: Field): string => `${field.type}${field.nullable ? '?' : ''}${field.values ? ':values' : ''}`;

/** Every kind of thing `resource` declares that a matrix's checks depend on, as strings. */
export function definitionKinds(resource: Resource): Set<string> {
  const kinds = new Set<string>([`scope:${resource.scope}`, `area:${resource.area}`]);
  for (const field of resource.recordFields) {
    kinds.add(`field:${fieldKind(field)}`);
    if (field.join) kinds.add('field:joined');
    if (field.references) kinds.add('field:reference');
    if (field.unique) kinds.add('field:unique');
  }
  if (resource.fields.some((field) => field.hidden)) kinds.add('field:hidden');
  for (const join of Object.values(resource.joins)) kinds.add(`join:${join.scope}`);
  for (const filter of resource.filters) {
    for (const target of filter.targets) kinds.add(`filter:${filter.match}:${target.type}${target.join ? ':joined' : ''}${target.values ? ':values' : ''}`);
    if (filter.targets.length > 1) kinds.add(`filter:${filter.match}:several columns`);
  }
  for (const include of resource.includes) kinds.add(`include:${include.cardinality}`);
  for (const field of resource.sorts) kinds.add(`sort:${fieldKind(field)}`);
  for (const field of resource.ranges) kinds.add(`range:${fieldKind(field)}`);
  for (const field of resource.countable) kinds.add(`count:${fieldKind(field)}`);
  return kinds;
}

/**
 * Few families whose kinds together are every family's: greedily, each time
 * the one that adds the most kinds not yet held (the first in registry order
 * on a tie), then without any whose kinds the others all hold. The same
 * registry always gives the same families.
 */
export function coveringFamilies<R extends Resource>(families: readonly R[]): R[] {
  const kindsOf = new Map(families.map((resource) => [resource, definitionKinds(resource)]));
  const held = new Set<string>();
  const chosen: R[] = [];
  for (;;) {
    let best: R | null = null;
    let bestGain = 0;
    for (const resource of families) {
      let gain = 0;
      for (const kind of kindsOf.get(resource)!) if (!held.has(kind)) gain += 1;
      if (gain > bestGain) {
        best = resource;
        bestGain = gain;
      }
    }
    if (!best) break;
    chosen.push(best);
    for (const kind of kindsOf.get(best)!) held.add(kind);
  }
  // A later choice may hold every kind an earlier one added: drop such a family (the latest first).
  for (const resource of [...chosen].reverse()) {
    const others = chosen.filter((other) => other !== resource);
    const othersHold = new Set(others.flatMap((other) => [...kindsOf.get(other)!]));
    if ([...kindsOf.get(resource)!].every((kind) => othersHold.has(kind))) chosen.splice(chosen.indexOf(resource), 1);
  }
  // In registry order, as the matrices list families.
  return families.filter((resource) => chosen.includes(resource));
}
