import type { JsonSchema } from '../compile/field-types.ts';
import { componentRef } from './openapi-components.ts';
import { recordTypeName } from './record-type-name.ts';

/**
 * Moves every query parameter that two or more operations give alike (the
 * same name, schema and words: `createdAt[gte]` on every list, `status` on
 * many) under `components/parameters`, and refers to it from each
 * operation. The document then says each once: it grows by far less than
 * the parameters the lists take. Names are the parameter's in PascalCase
 * (`createdAt[gte]` -> `CreatedAtGte`), after its family's record type when
 * only one family's operations give it (`SkuInclude`, the list's and the
 * get's); two different parameters of one name are numbered in the order
 * the document first gives them (`Search`, `Search2`).
 */
export function shareParameters({ paths, components }: { paths: JsonSchema; components: JsonSchema }): { paths: JsonSchema; parameters: JsonSchema } {
  const uses = new Map<string, { count: number; families: Set<string> }>();
  for (const [path, item] of Object.entries(paths)) {
    for (const operation of Object.values(item as JsonSchema) as JsonSchema[]) {
      for (const parameter of inlineQueryParameters(operation)) {
        const text = JSON.stringify(parameter);
        const use = uses.get(text) ?? { count: 0, families: new Set<string>() };
        use.count += 1;
        use.families.add(familyOf(path));
        uses.set(text, use);
      }
    }
  }
  const parameters: JsonSchema = { ...components };
  const names = new Map<string, string>();
  for (const [text, { count, families }] of uses) {
    if (count < 2) continue;
    const parameterName = componentName(String((JSON.parse(text) as JsonSchema).name));
    const base = families.size === 1 ? `${recordTypeName([...families][0]!)}${parameterName}` : parameterName;
    let name = base;
    for (let n = 2; Object.hasOwn(parameters, name); n++) name = `${base}${n}`;
    parameters[name] = JSON.parse(text);
    names.set(text, name);
  }
  const shared = (parameter: JsonSchema): JsonSchema => {
    const name = names.get(JSON.stringify(parameter));
    return name === undefined ? parameter : componentRef('parameters', name);
  };
  const out = Object.fromEntries(Object.entries(paths).map(([path, item]) => [
    path,
    Object.fromEntries(Object.entries(item as JsonSchema).map(([method, operation]) => {
      const op = operation as JsonSchema;
      return [method, Array.isArray(op.parameters) ? { ...op, parameters: (op.parameters as JsonSchema[]).map(shared) } : op];
    })),
  ]));
  return { paths: out, parameters };
}

/** The family a path is of: `/brands/{brand}/skus/{id}` -> `skus`, the brand's own `/brands/{brand}` -> `brands`. */
function familyOf(path: string): string {
  const segments = path.split('/');
  return segments[3] ?? segments[1]!;
}

/** An operation's query parameters written in place (not already references). */
function inlineQueryParameters(operation: JsonSchema): JsonSchema[] {
  const list = Array.isArray(operation.parameters) ? (operation.parameters as JsonSchema[]) : [];
  return list.filter((parameter) => parameter.$ref === undefined && parameter.in === 'query');
}

/** `createdAt[gte]` -> `CreatedAtGte`, `productId` -> `ProductId`. */
function componentName(parameter: string): string {
  return parameter
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
