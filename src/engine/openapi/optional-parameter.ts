import type { JsonSchema } from '../compile/field-types.ts';

/**
 * "Try it" without surprise parameters (issue 19). A renderer fills a
 * parameter's input from the parameter's first example or, without one, from
 * its schema's `default`, first `enum` value or first `examples` entry; and
 * the reference's renderer (Scalar) sends an optional parameter whose input is
 * filled. So `limit=25`, `fields=id,name` or `createdSince=2026-03-01...` went
 * out with every first try, and came back as a surprise.
 *
 * An optional parameter that has anything to be filled from therefore gets an
 * `examples` map whose first entry, `default` (the name Scalar looks up first,
 * and the first entry, which other renderers take), has no value: the input
 * starts empty and the parameter is not sent until the user fills it in. A
 * real example, when the parameter has one, is the map's second entry, one
 * click away; the schema keeps its `default`, `enum` and `examples`.
 */
export const NOT_SENT_EXAMPLE: JsonSchema = Object.freeze({
  summary: 'Not sent',
  description: 'Leave it out to get what the API does without it.',
});

/** A parameter's schema without its description, which the parameter itself carries. */
export function withoutDescription(schema: JsonSchema): JsonSchema {
  const { description: _description, ...rest } = schema;
  return rest;
}

/** Schema keywords a renderer fills an empty input from. */
const FILLED_FROM = ['default', 'enum', 'examples', 'example'] as const;

/** An example of an optional parameter: its name in the `examples` map, a summary and the value. */
export interface ParameterExample {
  readonly name: string;
  readonly summary: string;
  readonly value: unknown;
}

/**
 * An optional query parameter, described, with the `examples` map above when
 * a renderer would otherwise fill it. The schema's own description goes to
 * the parameter unless `description` is given.
 */
export function optionalParameter({ name, schema, description, example }: {
  name: string;
  schema: JsonSchema;
  description?: string;
  example?: ParameterExample;
}): JsonSchema {
  const fillable = example !== undefined || FILLED_FROM.some((keyword) => schema[keyword] !== undefined);
  const examples = example === undefined
    ? { default: NOT_SENT_EXAMPLE }
    : { default: NOT_SENT_EXAMPLE, [example.name]: { summary: example.summary, value: example.value } };
  return {
    name,
    in: 'query',
    required: false,
    description: description ?? schema.description,
    schema: withoutDescription(schema),
    ...(fillable ? { examples } : {}),
  };
}
