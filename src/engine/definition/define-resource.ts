import type { ResourceDefinition } from './resource-definition.ts';

/**
 * Identity helper for a file in `resources/`: it exists only so the definition
 * is type-checked where it is written.
 */
export function defineResource<const T extends ResourceDefinition>(definition: T): T {
  return definition;
}
