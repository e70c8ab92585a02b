import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { DECIMAL_PARAMETER_PATTERN, UUID_PATTERN, type JsonSchema } from './field-types.ts';
import { explainTimestamp, FORMAT_EXPLANATIONS, MICROSECOND_TIMESTAMP_PATTERN } from './date-time-parameters.ts';
import type { ParameterIssue } from '../request/api-error.ts';

// ajv-formats is CommonJS: under NodeNext its default import is the module object, whose `default` is the plugin.
const addFormats = addFormatsImport.default;

/**
 * One AJV instance for the process. No type coercion and no defaults: the
 * request parser converts numbers strictly itself, and AJV never changes the
 * object it checks. Errors are verbose (they carry the value and its
 * schema) so that a message can say what is wrong with the value itself.
 */
function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true, verbose: true });
  addFormats(ajv, ['date', 'date-time']);
  ajv.addKeyword({ keyword: 'example' });
  return ajv;
}

const ajv = createAjv();

/** Compiles a schema once (at boot); a bad schema throws here, not on a request. */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  return ajv.compile(schema);
}

/** Turns AJV's errors on a query object into one issue per parameter, in words a client understands. */
export function parameterIssues(errors: readonly ErrorObject[] | null | undefined): ParameterIssue[] {
  const issues: ParameterIssue[] = [];
  for (const error of errors ?? []) {
    const parameter = error.instancePath.split('/')[1] ?? String(error.params.additionalProperty ?? error.params.missingProperty ?? '');
    if (issues.some((issue) => issue.parameter === parameter)) continue;
    issues.push({ parameter, message: describeError(error) });
  }
  return issues;
}

function describeError(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  // A date or timestamp: whichever rule it breaks, say what is wrong with this value and show a valid one.
  const format = (error.parentSchema as JsonSchema | undefined)?.format;
  // A range's timestamp bound holds at most microseconds (date-time-parameters.ts).
  if ((error.parentSchema as JsonSchema | undefined)?.pattern === MICROSECOND_TIMESTAMP_PATTERN && typeof error.data === 'string') {
    return explainTimestamp(error.data, { microseconds: true });
  }
  const explain = typeof format === 'string' && Object.hasOwn(FORMAT_EXPLANATIONS, format) ? FORMAT_EXPLANATIONS[format] : undefined;
  if (explain && typeof error.data === 'string') return explain(error.data);
  switch (error.keyword) {
    case 'pattern':
      if (p.pattern === UUID_PATTERN) return 'must be a lower-case UUID';
      if (p.pattern === DECIMAL_PARAMETER_PATTERN) return 'must be a decimal number such as -12.50: digits, with an optional minus sign and point, at most 20 digits each side of the point';
      if (String(p.pattern).includes('u0000')) return 'must not contain NUL characters';
      return `must match the pattern ${String(p.pattern)}${exampleOf(error)}`;
    case 'minLength':
      return Number(p.limit) === 1 ? 'must not be empty' : `must have at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must have at most ${String(p.limit)} characters`;
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'required':
      return 'is required';
    case 'maxItems':
      return `must be given at most ${String(p.limit)} times`;
    case 'minimum':
    case 'maximum':
      return `must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(p.limit)}`;
    case 'type':
      return `must be ${p.type === 'integer' ? 'an integer' : `of type ${String(p.type)}`}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** `, such as <value>` from the schema's `examples`, when it has one. */
function exampleOf(error: ErrorObject): string {
  const examples = (error.parentSchema as JsonSchema | undefined)?.examples;
  return Array.isArray(examples) && examples.length > 0 ? `, such as ${String(examples[0])}` : '';
}
