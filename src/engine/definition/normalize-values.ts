import type { DefinitionChecks } from './definition-checks.ts';

/**
 * The allowed values of a field or a joined-column filter: an `enum` lists
 * them, and no other type has any (null).
 */
export function normalizeValues({ key, type, values, checks }: {
  /** Key of the field or filter that declares them. */
  key: string;
  type: string;
  values: readonly string[] | undefined;
  checks: DefinitionChecks;
}): readonly string[] | null {
  if (type === 'enum') {
    if (!values || values.length === 0) checks.fail(`${key}.values`, 'an enum lists its values');
    return Object.freeze([...values!]);
  }
  if (values !== undefined) checks.fail(`${key}.values`, "only an 'enum' has values");
  return null;
}
