import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { recordTypeName } from '../../src/engine/openapi/record-type-name.ts';

/**
 * The published document's schemas, as a client's validator reads them: the
 * generated `docs/openapi.json` (kept current by `npm run docs -- --check`),
 * compiled by AJV as JSON Schema 2020-12 (OpenAPI 3.1's dialect), not the
 * engine's own schemas. A 200 the fuzz tests get must match what the
 * document promises a client.
 */

const addFormats = addFormatsImport.default;
const DOCUMENT_ID = 'openapi.json';

interface Document {
  readonly components: { readonly schemas: Readonly<Record<string, { readonly properties?: Readonly<Record<string, unknown>> }>> };
}
const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as Document;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema(document as object, DOCUMENT_ID);

const compiled = new Map<string, ValidateFunction>();

/** The validator of `#/components/schemas/<name>` in the document (or of a path below it). */
function validatorOf(pointer: string): ValidateFunction {
  let validate = compiled.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/components/schemas/${pointer}` });
    compiled.set(pointer, validate);
  }
  return validate;
}

/** What the document's schema says of a value: null when it matches, the errors otherwise. */
function problems(pointer: string, value: unknown): string | null {
  const validate = validatorOf(pointer);
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

const SUFFIXES = { record: '', list: 'List', changes: 'Changes', counts: 'Counts' } as const;

/** A family's body schemas by kind: its record, its list page, its changes page, its counts by value. */
export function documentProblems({ family, kind, value }: { family: string; kind: keyof typeof SUFFIXES; value: unknown }): string | null {
  return problems(`${recordTypeName(family)}${SUFFIXES[kind]}`, value);
}

/**
 * A sparse record (`fields=`): only the fields asked for (and includes), each
 * the value its property's schema in the document allows. The whole record's
 * schema would require every field.
 */
export function sparseRecordProblems({ family, record, fields }: { family: string; record: Record<string, unknown>; fields: readonly string[] }): string | null {
  const name = recordTypeName(family);
  const missing = fields.filter((field) => !Object.hasOwn(record, field));
  if (missing.length > 0) return `missing ${missing.join(', ')}`;
  const properties = document.components.schemas[name]?.properties ?? {};
  for (const [key, value] of Object.entries(record)) {
    if (!Object.hasOwn(properties, key)) return `${key}: not a property of ${name} in the document`;
    const found = problems(`${name}/properties/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, value);
    if (found) return `${key}: ${found}`;
  }
  return null;
}

/** The error body's schema in the document. */
export const errorBodyProblems = (body: unknown): string | null => problems('Error', body);
