import type { DefinitionChecks } from './definition-checks.ts';
import { didYouMean } from './did-you-mean.ts';
import { NAME_SHAPE, SQL_IDENTIFIER } from './naming.ts';
import type { Join } from './resource.ts';
import type { JoinDefinition, ResourceDefinition } from './resource-definition.ts';
import { tableOf } from './table-of.ts';

const JOIN_KEYS = ['table', 'on'];

/**
 * A family's joins, each resolved to the family that reads the joined table:
 * that family's scope decides how the joined rows are limited to the brand.
 * Whether the local column exists is checked once the fields are known.
 */
export function normalizeJoins({ declared, definitions, checks }: {
  declared: Readonly<Record<string, JoinDefinition>>;
  /** Every definition of the registry by path. */
  definitions: ReadonlyMap<string, ResourceDefinition>;
  checks: DefinitionChecks;
}): Readonly<Record<string, Join>> {
  const { fail, onlyKeys } = checks;
  const out: Record<string, Join> = {};
  for (const [name, join] of Object.entries(declared)) {
    const key = `joins.${name}`;
    onlyKeys({ key, object: join, allowed: JOIN_KEYS });
    if (!NAME_SHAPE.test(name)) fail(key, 'a join name is camelCase');
    const target = [...definitions.values()].find((other) => tableOf(other) === join.table);
    if (!target) {
      fail(`${key}.table`, `no family reads table '${join.table}'${didYouMean(join.table, [...definitions.values()].map(tableOf))}`);
    }
    // The changes feed sees a record change when a joined row changes, by the joined row's `sync_xid`; the tenant's table has none.
    if (target?.scope === 'tenant') fail(`${key}.table`, 'a join reads a brand-owned or shared family: the changes feed cannot see the tenant\'s rows change');
    const pairs = Object.entries(join.on ?? {});
    if (pairs.length !== 1) fail(`${key}.on`, 'name exactly one { localColumn: joinedColumn } pair');
    const [localColumn, foreignColumn] = pairs[0]!;
    for (const column of [localColumn, foreignColumn]) {
      if (!SQL_IDENTIFIER.test(column)) fail(`${key}.on`, `'${column}' is not a column name`);
    }
    out[name] = Object.freeze({ name, table: join.table, localColumn, foreignColumn, scope: target!.scope });
  }
  return Object.freeze(out);
}
