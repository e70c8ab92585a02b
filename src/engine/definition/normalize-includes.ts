import type { DefinitionChecks } from './definition-checks.ts';
import { didYouMean } from './did-you-mean.ts';
import { NAME_SHAPE } from './naming.ts';
import type { Field, Include } from './resource.ts';
import type { IncludeDefinition, ResourceDefinition } from './resource-definition.ts';

const INCLUDE_KEYS = ['resource', 'on', 'description'];

interface IncludesContext {
  /** The family's fields, hidden ones included. */
  readonly fields: readonly Field[];
  /** Every definition of the registry by path. */
  readonly definitions: ReadonlyMap<string, ResourceDefinition>;
  readonly checks: DefinitionChecks;
}

/**
 * A family's includes, each pairing a field of the record with a field of the
 * related family's record: to-one when that field is its `id`, else to-many.
 */
export function normalizeIncludes({ declared, ...context }: IncludesContext & {
  declared: Readonly<Record<string, IncludeDefinition>>;
}): readonly Include[] {
  return Object.freeze(Object.entries(declared).map(([name, include]) => normalizeInclude({ name, include, ...context })));
}

function normalizeInclude({ name, include, fields, definitions, checks }: IncludesContext & {
  name: string;
  include: IncludeDefinition;
}): Include {
  const { fail, onlyKeys } = checks;
  const key = `includes.${name}`;
  onlyKeys({ key, object: include, allowed: INCLUDE_KEYS });
  if (!NAME_SHAPE.test(name)) fail(key, 'an include name is camelCase');
  if (fields.some((field) => field.name === name)) fail(key, 'an include cannot take the name of a field');
  const related = definitions.get(include.resource);
  if (!related) fail(`${key}.resource`, `no family '${include.resource}'${didYouMean(include.resource, definitions.keys())}`);
  const pairs = Object.entries(include.on ?? {});
  if (pairs.length !== 1) fail(`${key}.on`, 'name exactly one { localField: relatedField } pair');
  const [localField, remoteField] = pairs[0]!;
  const local = fields.find((f) => f.name === localField);
  if (!local || local.hidden) {
    fail(`${key}.on`, `'${localField}' is not a field of the record${didYouMean(localField, fields.map((f) => f.name))}`);
  }
  const remote = Object.hasOwn(related!.fields, remoteField) ? related!.fields[remoteField] : undefined;
  if (!remote || remote.hidden) {
    fail(`${key}.on`, `'${remoteField}' is not a field of ${include.resource}${didYouMean(remoteField, Object.keys(related!.fields))}`);
  }
  return Object.freeze({
    name,
    resource: include.resource,
    localField,
    remoteField,
    cardinality: remoteField === 'id' ? 'one' : 'many',
    description: include.description ?? null,
  });
}
