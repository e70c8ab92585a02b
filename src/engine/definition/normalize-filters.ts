import type { DefinitionChecks } from './definition-checks.ts';
import { MATCH_KINDS } from '../compile/match-kinds.ts';
import { filterTargets } from './filter-targets.ts';
import type { Field, Filter, Join } from './resource.ts';
import type { FilterDefinition, Scope } from './resource-definition.ts';
import { SYNC_FILTERS, syncFilters } from './sync-filters.ts';
import { rangeFilters } from './range-filters.ts';

/** Query parameters the engine owns on every list (and `by`, its counts'); a filter may not take these names. */
export const RESERVED_PARAMETERS: readonly string[] = ['cursor', 'limit', 'include', 'fields', 'sort', 'by', ...SYNC_FILTERS.map((filter) => filter.name)];

const FILTER_KEYS = ['match', 'field', 'fields', 'column', 'type', 'values', 'description'];
const FILTER_NAME = /^[a-zA-Z][a-zA-Z0-9]*$/;

interface FiltersContext {
  /** The family's fields, hidden ones included. */
  readonly fields: readonly Field[];
  readonly joins: Readonly<Record<string, Join>>;
  readonly checks: DefinitionChecks;
}

/**
 * A family's filters: the declared ones in order, each checked by its match
 * kind, then the ones the engine adds: the sync filters (`sync-filters.ts`)
 * and the bounds of each range field (`range-filters.ts`).
 */
export function normalizeFilters({ declared, scope, ranges, ...context }: FiltersContext & {
  declared: Readonly<Record<string, FilterDefinition>>;
  scope: Scope;
  /** The fields that take ranges (normalize-questions.ts). */
  ranges: readonly Field[];
}): readonly Filter[] {
  const out = Object.entries(declared).map(([name, filter]) => normalizeFilter({ name, filter, ...context }));
  out.push(...syncFilters({ scope, fields: context.fields }), ...rangeFilters(ranges));
  return Object.freeze(out);
}

function normalizeFilter({ name, filter, fields, joins, checks }: FiltersContext & { name: string; filter: FilterDefinition }): Filter {
  const { fail, oneOf, onlyKeys } = checks;
  const key = `filters.${name}`;
  onlyKeys({ key, object: filter, allowed: FILTER_KEYS });
  if (!FILTER_NAME.test(name)) fail(key, 'a filter name is camelCase');
  if (RESERVED_PARAMETERS.includes(name)) fail(key, `'${name}' is a parameter of every list`);
  oneOf({ key: `${key}.match`, value: filter.match, allowed: Object.keys(MATCH_KINDS), what: 'match kind' });
  const given = ['field', 'fields', 'column'].filter((k) => filter[k as keyof FilterDefinition] !== undefined);
  if (given.length !== 1) fail(key, "give exactly one of 'field', 'fields' or 'column'");
  const targets = filterTargets({ key, filter, fields, joins, checks });
  const problem = MATCH_KINDS[filter.match].check(targets);
  if (problem) fail(key, problem);
  return Object.freeze({ name, match: filter.match, targets, description: filter.description ?? null });
}
