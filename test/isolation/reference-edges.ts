import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';

/**
 * A field of a family whose value names a row of another (or the same)
 * family: what the isolation world fills with ids of the right brand, or, on
 * purpose, of the wrong one.
 */
export interface ReferenceEdge {
  /** Field of the family that holds the value. */
  readonly field: string;
  /** Path of the family whose row it names. */
  readonly target: string;
  /** Field of that row whose value it holds (`id` for a foreign key). */
  readonly targetField: string;
}

/**
 * Every reference of a family, from the registry alone: declared foreign keys
 * (`references`), the local field of each to-one include, and the remote field
 * of every to-many include that points at this family. The last two matter for
 * the contract's tables, whose reference columns carry no foreign key but
 * still decide what an include embeds. The first edge found for a field wins;
 * the registry has no field that two edges disagree on, and the oracle
 * (`visibility.ts`) does not rely on it anyway.
 */
export function referenceEdges(registry: Registry, resource: Resource): ReferenceEdge[] {
  const edges = new Map<string, ReferenceEdge>();
  const add = (edge: ReferenceEdge): void => {
    if (!edges.has(edge.field)) edges.set(edge.field, edge);
  };
  for (const field of resource.fields) {
    if (field.column !== null && field.references !== null) add({ field: field.name, target: field.references, targetField: 'id' });
  }
  for (const include of resource.includes) {
    if (include.cardinality === 'one') add({ field: include.localField, target: include.resource, targetField: include.remoteField });
  }
  for (const parent of registry.resources) {
    for (const include of parent.includes) {
      if (include.cardinality === 'many' && include.resource === resource.path) {
        add({ field: include.remoteField, target: parent.path, targetField: include.localField });
      }
    }
  }
  // Only fields with a column of this table can be planted.
  return [...edges.values()].filter((edge) => resource.fields.some((f) => f.name === edge.field && f.column !== null));
}

/**
 * Families in an order that inserts every row after the rows its foreign keys
 * name (a family naming itself is fine: one statement checks its keys at its
 * end). A cycle of foreign keys across families cannot be planted this way.
 */
export function insertionOrder(registry: Registry): Resource[] {
  const ordered: Resource[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (resource: Resource, trail: readonly string[]): void => {
    const seen = state.get(resource.path);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new Error(`foreign keys form a cycle: ${[...trail, resource.path].join(' -> ')}`);
    state.set(resource.path, 'visiting');
    for (const field of resource.fields) {
      if (field.column !== null && field.references !== null && field.references !== resource.path) {
        visit(registry.get(field.references), [...trail, resource.path]);
      }
    }
    state.set(resource.path, 'done');
    ordered.push(resource);
  };
  for (const resource of registry.resources) visit(resource, []);
  return ordered;
}
