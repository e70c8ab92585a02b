import type { ValidateFunction } from 'ajv';
import type { JsonSchema } from './field-types.ts';
import { compileQueries, type ResourceQueries } from './compile-queries.ts';
import type { Registry } from '../definition/registry.ts';
import type { Include, Resource } from '../definition/resource.ts';
import { CHANGES_QUERY_SCHEMA, listQuerySchema } from './schemas.ts';
import { countsQuerySchema } from './counts-schemas.ts';
import { listSorts, type ListSort } from './list-sorts.ts';
import { compileChanges, type ChangesQueries } from './changes-queries.ts';
import { compileChangesProbe, type ChangesProbe } from './changes-probe.ts';
import { compileSchema } from './compile-schema.ts';

/** A family with everything a request needs, built once at boot. */
export interface CompiledResource {
  readonly resource: Resource;
  readonly includesByName: ReadonlyMap<string, Include>;
  /** The record's field names in order, for `fields=`. */
  readonly fieldNames: readonly string[];
  readonly queries: ResourceQueries;
  /** The orders its list takes, by the `sort` value that asks for each (list-sorts.ts). */
  readonly sorts: ReadonlyMap<string, ListSort>;
  readonly listSchema: JsonSchema;
  readonly validateList: ValidateFunction;
  /** The counts route's parameters, and their validator. */
  readonly countsSchema: JsonSchema;
  readonly validateCounts: ValidateFunction;
  readonly getSchema: JsonSchema;
  readonly validateGet: ValidateFunction;
  /** The changes feed's SQL (every family but the tenant's). */
  readonly changes: ChangesQueries;
  /** Whether a change to the family committed, for the brands someone waits on (live changes). */
  readonly changesProbe: ChangesProbe;
  readonly changesSchema: JsonSchema;
  readonly validateChanges: ValidateFunction;
}

/** Single-record routes take no parameter but `include`, which the parser reads apart. */
const GET_QUERY_SCHEMA: JsonSchema = { type: 'object', additionalProperties: false, properties: {} };

/**
 * Compiled forms already made, by registry. A registry is frozen, so its
 * compiled form never changes, and compiling it takes most of a second of
 * CPU (AJV writes a validator per schema): a process compiles a registry
 * once, however many apps it makes of it. An instance makes one; the tests
 * make hundreds, and compiled them all afresh.
 */
const compiledRegistries = new WeakMap<Registry, ReadonlyMap<string, CompiledResource>>();

/** Compiles every family (once per registry); a schema AJV rejects stops start-up here, naming the family. */
export function compileRegistry(registry: Registry): ReadonlyMap<string, CompiledResource> {
  let families = compiledRegistries.get(registry);
  if (!families) {
    families = compileFamilies(registry);
    compiledRegistries.set(registry, families);
  }
  return families;
}

function compileFamilies(registry: Registry): ReadonlyMap<string, CompiledResource> {
  const validateGet = compileSchema(GET_QUERY_SCHEMA);
  const validateChanges = compileSchema(CHANGES_QUERY_SCHEMA);
  return new Map(
    registry.resources.map((resource) => {
      const listSchema = listQuerySchema(resource);
      const countsSchema = countsQuerySchema(resource);
      let validateList: ValidateFunction;
      let validateCounts: ValidateFunction;
      try {
        validateList = compileSchema(listSchema);
        validateCounts = compileSchema(countsSchema);
      } catch (error) {
        throw new Error(`resources/${resource.path}.ts: its query schema does not compile: ${(error as Error).message}`);
      }
      const compiled: CompiledResource = Object.freeze({
        resource,
        includesByName: new Map(resource.includes.map((include) => [include.name, include])),
        fieldNames: Object.freeze(resource.recordFields.map((field) => field.name)),
        queries: compileQueries(resource),
        sorts: listSorts(resource),
        listSchema,
        validateList,
        countsSchema,
        validateCounts,
        getSchema: GET_QUERY_SCHEMA,
        validateGet,
        changes: compileChanges(resource),
        changesProbe: compileChangesProbe(resource),
        changesSchema: CHANGES_QUERY_SCHEMA,
        validateChanges,
      });
      return [resource.path, compiled] as const;
    }),
  );
}
