import fc from 'fast-check';
import type { JsonSchema } from '../../src/engine/compile/field-types.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { filterSchemas } from '../../src/engine/compile/schemas.ts';
import { queryValue, validParameterValue, type PlantedRecord } from '../support/record-factory.ts';
import { BOUND_TEXT, DATE_TEXT, hostileText, INSTANT_TEXT, MAX_WIRE_LENGTH, onTheWire, type RangeType } from './hostile-values.ts';
import { oneValueSchema, sortValues } from './query-outcome.ts';

/**
 * Random query strings for one route: parameter names from the route's own
 * vocabulary (every filter, `limit`, `cursor`, `sort`, `include`, `fields`,
 * the `...Since` filters, the range bounds such as `createdAt[gte]`, `by`
 * on counts), names that look like JavaScript internals, array-style
 * names (`a[]`, `a[0]`), random names; values hostile or real; repeated keys,
 * odd separators, malformed percent-encoding. The result starts with `?`
 * (or is empty) and stays under `MAX_WIRE_LENGTH`.
 */

/** Names every route meets from a hostile client; `__proto__` and friends must be plain unknown parameters. */
export const INTERNAL_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'then'];

/** What a route knows: every name worth trying, the declared ones, and valid values by declared name. */
export interface Vocabulary {
  readonly names: readonly string[];
  readonly valid: ReadonlyMap<string, readonly string[]>;
  /** Values worth generating for a declared name beyond its valid ones: instants for a `since` filter. */
  readonly shaped: ReadonlyMap<string, fc.Arbitrary<string>>;
}

/** A list route's vocabulary: its parameters, and for each valid values (the planted records' own among them). */
export function listVocabulary(resource: Resource, planted: readonly PlantedRecord[]): Vocabulary {
  const fieldNames = resource.recordFields.map((field) => field.name);
  const includeNames = resource.includes.map((include) => include.name);
  const valid = new Map<string, string[]>([
    ['limit', ['1', '2', '25', '100']],
    ['fields', [...fieldNames, fieldNames.join(','), `${fieldNames[0]}, ${fieldNames.at(-1)}`]],
    // A family without includes has no valid include: any include is 400 unsupported_include for it.
    ['include', includeNames.length > 0 ? [...includeNames, includeNames.join(','), ` ${includeNames[0]} `] : ['none']],
    ['sort', [...sortValues(resource)]],
    ...filterValues(resource, planted),
  ]);
  const names = [...new Set(['cursor', ...valid.keys(), 'updatedSince', 'createdSince', ...INTERNAL_NAMES, 'LIMIT', 'Limit', 'limit ', 'include[]', 'Sort', 'sort[]'])];
  return { names, valid, shaped: shapedFilterValues(resource) };
}

/**
 * The counts route's vocabulary (CONTRACT.md §8): `by` with each countable
 * field and the list's filters with valid values; the list's own
 * parameters, which counts do not take (`cursor`, `limit`, `sort`,
 * `include`, `fields`), among the names only.
 */
export function countsVocabulary(resource: Resource, planted: readonly PlantedRecord[]): Vocabulary {
  const list = listVocabulary(resource, planted);
  const valid = new Map<string, readonly string[]>([['by', resource.countable.map((field) => field.name)], ...filterValues(resource, planted)]);
  const names = [...new Set(['by', 'BY', 'by[]', 'By', ...list.names])];
  return { names, valid, shaped: list.shaped };
}

/** Valid values of each filter, ranges included: one its rule accepts, and the planted records' own. */
function filterValues(resource: Resource, planted: readonly PlantedRecord[]): [string, string[]][] {
  const schemas = filterSchemas(resource);
  return resource.filters.map((filter) => {
    const values = new Set([validParameterValue(oneValueSchema(schemas[filter.name] as JsonSchema))]);
    // A range bound's name is not a field's: `createdAt[gte]` takes the values of `createdAt`.
    const field = filter.targets.length === 1 && filter.targets[0]!.join === null && filter.match !== 'exact' ? filter.targets[0]!.label : filter.name;
    for (const record of planted) {
      const value = record[field];
      if (value !== undefined && value !== null) values.add(queryValue(value));
    }
    return [filter.name, [...values]];
  });
}

/**
 * Values worth generating beyond the valid ones: instants and near-instants
 * for a `since` filter and a date or timestamp bound (any Unicode space
 * between date and time, no zone, a raw `+`, boundaries), numbers of every
 * shape for an integer or decimal bound.
 */
function shapedFilterValues(resource: Resource): Map<string, fc.Arbitrary<string>> {
  const instants = fc.oneof({ weight: 3, arbitrary: INSTANT_TEXT }, { weight: 2, arbitrary: DATE_TEXT });
  const shaped = new Map<string, fc.Arbitrary<string>>();
  for (const filter of resource.filters) {
    if (filter.match === 'since') shaped.set(filter.name, instants);
    else if (filter.match !== 'exact' && filter.match !== 'contains-ci') shaped.set(filter.name, BOUND_TEXT[filter.targets[0]!.type as RangeType] ?? instants);
  }
  return shaped;
}

/**
 * A changes route's vocabulary (CONTRACT.md §6): `limit` and `fields` with
 * valid values; `syncToken` and `cursor` with forged ones (no random text is
 * a signed token), `include` and the list's filters as names the route does
 * not take.
 */
export function changesVocabulary(resource: Resource): Vocabulary {
  const fieldNames = resource.recordFields.map((field) => field.name);
  const valid = new Map<string, string[]>([
    ['limit', ['1', '2', '100', '999', '1000']],
    ['fields', [...fieldNames, fieldNames.join(','), `${fieldNames[0]}, ${fieldNames.at(-1)}`]],
    // Not valid: forged (cursors.test.ts forges list cursors with more care); here they reach the codec.
    ['syncToken', ['not-a-token', 'e30.e30', '']],
    ['cursor', ['not-a-cursor', 'e30.e30']],
  ]);
  const names = [...new Set(['include', ...valid.keys(), ...resource.filters.map((filter) => filter.name), ...INTERNAL_NAMES, 'synctoken', 'Limit'])];
  return { names, valid, shaped: new Map() };
}

/** A parameter name: a real one, an array-style or dotted form of one, or anything. */
function nameArbitrary(names: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...names), fc.constantFrom('[]', '[0]', '[1]', '[a]', '[]]', '.x', '[__proto__]')).map(([n, s]) => `${n}${s}`) },
    { weight: 2, arbitrary: hostileText() },
  );
}

/**
 * Two kinds of query: anything (names mostly real, repeats, odd separators),
 * and, twice as often, declared names only, mostly each once, each with a
 * value valid for it, shaped for it (RFC 3339 instants and near ones for a
 * `since` filter), empty or hostile (no cursor: cursors.test.ts forges
 * those), so that hostile values get past the names and reach the filters'
 * SQL.
 */
export function queryArbitrary(vocabulary: Vocabulary): fc.Arbitrary<string> {
  const allValid = [...vocabulary.valid.values()].flat();
  const anyPair = fc.tuple(onTheWire(nameArbitrary(vocabulary.names)), onTheWire(hostileText(allValid)), fc.constantFrom('=', '=', '=', '=', '', '=='))
    .map(([name, text, equals]) => (equals === '' ? name : `${name}${equals}${text}`));
  const anything = fc.tuple(
    fc.array(anyPair, { maxLength: 6 }),
    fc.option(fc.nat(), { freq: 3 }),
    fc.constantFrom('&', '&', '&', '&&', ';'),
    fc.constantFrom('?', '?', '?', '??', '?&'),
  ).map(([pairs, repeat, separator, start]) => {
    // A key given twice, exactly (other repeats come from the small set of names).
    const all = repeat !== null && pairs.length > 0 ? [...pairs, pairs[repeat % pairs.length]!] : pairs;
    return all.length === 0 ? '' : `${start}${all.join(separator)}`;
  });
  const declaredPair = (name: string): fc.Arbitrary<string> => {
    const valid = vocabulary.valid.get(name)!;
    const shaped = vocabulary.shaped.get(name);
    const text = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...valid) },
      { weight: 3, arbitrary: hostileText(valid) },
      { weight: 1, arbitrary: fc.constant('') },
      ...(shaped ? [{ weight: 6, arbitrary: shaped }] : []),
    );
    return onTheWire(text).map((wire) => `${name}=${wire}`);
  };
  // Declared names, each once, or now and then one of them twice (the same value or another) or bare (`name` with no `=`).
  const declaredOnly = fc.tuple(
    fc.uniqueArray(fc.constantFrom(...vocabulary.valid.keys()), { minLength: 1, maxLength: 4 }).chain((names) => fc.tuple(...names.map(declaredPair))),
    fc.constantFrom('once', 'once', 'once', 'once', 'once', 'once', 'twice', 'bare'),
    fc.nat(),
  ).map(([pairs, how, at]) => {
    const chosen = pairs[at % pairs.length]!;
    const all = how === 'twice' ? [...pairs, chosen] : how === 'bare' ? [...pairs, chosen.slice(0, chosen.indexOf('='))] : pairs;
    return `?${all.join('&')}`;
  });
  return fc.oneof({ weight: 1, arbitrary: anything }, { weight: 2, arbitrary: declaredOnly }).filter((query) => query.length <= MAX_WIRE_LENGTH);
}
