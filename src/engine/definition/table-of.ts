import { toSnakeCase } from './naming.ts';
import type { ResourceDefinition } from './resource-definition.ts';

/** The table a definition reads, before normalization: its own, or its path in snake case. */
export function tableOf(definition: ResourceDefinition): string {
  return definition.table ?? toSnakeCase(definition.path);
}
