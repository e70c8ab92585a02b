import type { Registry } from '../../engine/definition/registry.ts';
import { linkTargetOf } from './derive-records.ts';

/**
 * The order to derive families in: a family after the families it links to
 * that are derived too, so that its rows can point at theirs; otherwise in
 * registry (path) order. Families that link to each other in a loop are taken
 * in path order, and a link to one not derived yet stays empty.
 */
export function derivationOrder({ registry, paths }: { registry: Registry; paths: readonly string[] }): string[] {
  const pending = new Set(paths);
  const dependsOn = new Map(paths.map((path) => {
    const resource = registry.get(path);
    const targets = resource.fields.map((field) => linkTargetOf(resource, field)).filter((target): target is string => target !== null && target !== path);
    return [path, new Set(targets.filter((target) => pending.has(target)))];
  }));
  const order: string[] = [];
  const sorted = registry.resources.map((resource) => resource.path).filter((path) => pending.has(path));
  while (pending.size > 0) {
    const ready = sorted.find((path) => pending.has(path) && [...dependsOn.get(path)!].every((target) => !pending.has(target)))
      ?? sorted.find((path) => pending.has(path))!;
    order.push(ready);
    pending.delete(ready);
  }
  return order;
}
