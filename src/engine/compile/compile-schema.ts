import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { UUID_PATTERN, type JsonSchema } from './field-types.ts';
import type { ParameterIssue } from '../request/api-error.ts';

// ajv-formats is CommonJS: under NodeNext its default import is the module object, whose `default` is the plugin.
const addFormats = addFormatsImport.default;

/**
 * One AJV instance for the process. No type coercion and no defaults: the
 * request parser converts numbers strictly itself, and AJV never changes the
 * object it checks.
 */
function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
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
    const parameter = error.instancePath.split('/')[1] ?? String(error.params.additionalProperty ?? '');
    if (issues.some((issue) => issue.parameter === parameter)) continue;
    issues.push({ parameter, message: describeError(error) });
  }
  return issues;
}

function describeError(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'pattern':
      if (p.pattern === UUID_PATTERN) return 'must be a lower-case UUID';
      if (String(p.pattern).includes('u0000')) return 'must not contain NUL characters';
      return 'has an invalid format';
    case 'minLength':
      return Number(p.limit) === 1 ? 'must not be empty' : `must have at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must have at most ${String(p.limit)} characters`;
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'minimum':
    case 'maximum':
      return `must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(p.limit)}`;
    case 'format':
      return p.format === 'date' ? 'must be a date (YYYY-MM-DD)' : 'must be an ISO 8601 timestamp with a time zone';
    case 'type':
      return `must be ${p.type === 'integer' ? 'an integer' : `of type ${String(p.type)}`}`;
    default:
      return error.message ?? 'is invalid';
  }
}
