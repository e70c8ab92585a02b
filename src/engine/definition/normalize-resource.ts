import { definitionChecks, type DefinitionChecks } from './definition-checks.ts';
import { SQL_IDENTIFIER, toTitle } from './naming.ts';
import { normalizeFields } from './normalize-fields.ts';
import { normalizeFilters } from './normalize-filters.ts';
import { normalizeIncludes } from './normalize-includes.ts';
import { normalizeJoins } from './normalize-joins.ts';
import { normalizeQuestion } from './normalize-questions.ts';
import type { Field, Join, Resource } from './resource.ts';
import type { Area, ResourceDefinition, Scope } from './resource-definition.ts';
import { tableOf } from './table-of.ts';

const SCOPES: readonly Scope[] = ['brand', 'shared', 'tenant'];
/** The areas of CONTRACT.md §4, in the order the docs list them. */
export const AREAS: readonly Area[] = ['catalog', 'sourcing', 'orders', 'logistics', 'finance', 'documents', 'reference'];
const PATH_SHAPE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const RESOURCE_KEYS = ['path', 'table', 'scope', 'area', 'title', 'description', 'fields', 'joins', 'filters', 'includes', 'sorts', 'ranges', 'countable'];

/** Fields every family needs: its key, and with it the list order. */
const KEY_FIELDS = [['id', 'uuid'], ['createdAt', 'timestamp']] as const;

interface Context {
  /** Every definition of the registry by path, for cross-references. */
  readonly definitions: ReadonlyMap<string, ResourceDefinition>;
}

/**
 * Checks a definition and fills its defaults, in steps: the family's own keys,
 * its joins, fields, filters and includes. Every mistake throws a
 * `DefinitionError` naming the family and the key, with a suggestion where one
 * is close.
 */
export function normalizeResource(definition: ResourceDefinition, { definitions }: Context): Resource {
  const family = String(definition.path);
  const checks = definitionChecks(family);
  const table = checkFamilyKeys({ definition, family, checks });
  const joins = normalizeJoins({ declared: definition.joins ?? {}, definitions, checks });
  const fields = normalizeFields({ declared: definition.fields ?? {}, joins, definitions, checks });
  checkJoinColumns({ joins, fields, table, checks });
  checkKeyFields({ fields, checks });
  const asked = { fields, scope: definition.scope, checks };
  const ranges = normalizeQuestion({ question: 'ranges', declared: definition.ranges, ...asked });
  return Object.freeze({
    path: family,
    table,
    scope: definition.scope,
    area: definition.area,
    title: definition.title ?? toTitle(family),
    description: definition.description ?? null,
    fields,
    recordFields: Object.freeze(fields.filter((field) => !field.hidden)),
    joins,
    filters: normalizeFilters({ declared: definition.filters ?? {}, scope: definition.scope, ranges, fields, joins, checks }),
    includes: normalizeIncludes({ declared: definition.includes ?? {}, fields, definitions, checks }),
    sorts: normalizeQuestion({ question: 'sorts', declared: definition.sorts, ...asked }),
    ranges,
    countable: normalizeQuestion({ question: 'countable', declared: definition.countable, ...asked }),
  });
}

/** The family's own keys, path, table and scope; gives the table. */
function checkFamilyKeys({ definition, family, checks: { fail, oneOf, onlyKeys } }: {
  definition: ResourceDefinition;
  family: string;
  checks: DefinitionChecks;
}): string {
  onlyKeys({ key: '', object: definition, allowed: RESOURCE_KEYS });
  if (!PATH_SHAPE.test(family)) fail('path', `'${family}' is not a kebab-case path`);
  const table = tableOf(definition);
  if (!SQL_IDENTIFIER.test(table)) fail('table', `'${table}' is not a lower-case SQL identifier`);
  oneOf({ key: 'scope', value: definition.scope, allowed: SCOPES, what: 'scope' });
  if (definition.area === undefined) fail('area', `name the family's area, one of ${AREAS.join(', ')}`);
  oneOf({ key: 'area', value: definition.area, allowed: AREAS, what: 'area' });
  return table;
}

/** Each join starts from a column of this table that a field declares. */
function checkJoinColumns({ joins, fields, table, checks }: {
  joins: Readonly<Record<string, Join>>;
  fields: readonly Field[];
  table: string;
  checks: DefinitionChecks;
}): void {
  for (const join of Object.values(joins)) {
    if (!fields.some((field) => field.column === join.localColumn)) {
      checks.fail(`joins.${join.name}.on`, `'${join.localColumn}' is not a column of ${table}`);
    }
  }
}

/** Keys and list order need a non-null uuid `id` and timestamp `createdAt`, both columns of this table. */
function checkKeyFields({ fields, checks }: { fields: readonly Field[]; checks: DefinitionChecks }): void {
  for (const [name, type] of KEY_FIELDS) {
    const field = fields.find((f) => f.name === name);
    if (!field || field.type !== type || field.nullable || field.join) {
      checks.fail(`fields.${name}`, `every family needs a non-null ${type} column field '${name}' (keys and list order)`);
    }
  }
}
