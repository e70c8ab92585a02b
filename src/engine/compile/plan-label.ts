import type { Resource } from '../definition/resource.ts';

/** What a compiled statement does for its family: one name per kind of plan the engine compiles. */
export type PlanOperation = 'page' | 'count' | 'counts' | 'count check' | 'one' | 'include' | 'changes start' | 'changes page';

/**
 * Names a compiled statement without its values: the family it serves, the
 * table it reads first, and what it does. Traces name a statement by it
 * (`products page`, `skus include`); bound values never go in a label.
 */
export interface PlanLabel {
  readonly family: string;
  readonly table: string;
  readonly operation: PlanOperation;
}

/** The label of one kind of plan of a family, made once at boot and shared by every statement of that kind. */
export function planLabel(resource: Resource, operation: PlanOperation): PlanLabel {
  return Object.freeze({ family: resource.path, table: resource.table, operation });
}
