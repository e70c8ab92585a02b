import { expect } from 'chai';
import { compileSchema, parameterIssues } from '../../../src/engine/compile/compile-schema.ts';
import { STRING_PARAMETER, UUID_PATTERN } from '../../../src/engine/compile/field-types.ts';
import { LIMIT_SCHEMA } from '../../../src/engine/compile/schemas.ts';

/** The issues AJV's errors become for a query object. */
function issuesFor(schema: Record<string, unknown>, query: Record<string, unknown>): Record<string, string> {
  const validate = compileSchema({ type: 'object', additionalProperties: false, properties: schema });
  expect(validate(query), JSON.stringify(query)).to.equal(false);
  return Object.fromEntries(parameterIssues(validate.errors).map((issue) => [issue.parameter, issue.message]));
}

describe('compileSchema', () => {
  it('never coerces a value nor fills in a default: the parser converts, AJV only checks', () => {
    const validate = compileSchema({ type: 'object', properties: { limit: LIMIT_SCHEMA } });
    expect(compileSchema({ type: 'integer' })('5')).to.equal(false);
    const query = {};
    expect(validate(query)).to.equal(true);
    expect(query).to.deep.equal({});
  });

  it('knows the date and date-time formats and the example keyword, and refuses anything it does not know', () => {
    expect(compileSchema({ type: 'string', format: 'date', example: '2026-03-01' })('2026-02-30')).to.equal(false);
    expect(compileSchema({ type: 'string', format: 'date-time' })('2026-03-01T09:30:00+01:00')).to.equal(true);
    expect(() => compileSchema({ type: 'string', format: 'email' })).to.throw(/unknown format "email"/);
    expect(() => compileSchema({ type: 'string', maxLenght: 3 })).to.throw(/unknown keyword: "maxLenght"/);
  });
});

describe('parameterIssues', () => {
  it('says what is wrong with each parameter in words a client understands', () => {
    const schema = {
      id: { type: 'string', pattern: UUID_PATTERN },
      name: STRING_PARAMETER,
      code: { type: 'string', minLength: 3 },
      status: { type: 'string', enum: ['active', 'archived'] },
      limit: LIMIT_SCHEMA,
      day: { type: 'string', format: 'date' },
      since: { type: 'string', format: 'date-time' },
      flag: { type: 'boolean' },
      sku: { type: 'string', pattern: '^[A-Z]+$', examples: ['ABC'] },
      tag: { type: 'string', pattern: '^[a-z]+$' },
    };
    expect(issuesFor(schema, { id: 'A1', name: '', code: 'ab', status: 'gone', limit: 0, day: '2026-13-01', since: 'yesterday', flag: 'yes', sku: 'abc', tag: 'A' })).to.deep.equal({
      id: 'must be a lower-case UUID',
      name: 'must not be empty',
      code: 'must have at least 3 characters',
      status: 'must be one of: active, archived',
      limit: 'must be at least 1',
      // A date or a timestamp is explained from its value (date-time-parameters.test.ts), with an example.
      day: 'names a date that does not exist (a month past 12, February 30...), such as 2026-03-01',
      since: 'must be an ISO 8601 timestamp with a time zone (the date YYYY-MM-DD, T, the time hh:mm:ss with an optional fraction, then Z or an offset), such as 2026-03-01T09:30:00Z or 2026-03-01T09:30:00+02:00',
      flag: 'must be of type boolean',
      sku: 'must match the pattern ^[A-Z]+$, such as ABC',
      tag: 'must match the pattern ^[a-z]+$',
    });
    expect(issuesFor(schema, { name: 'x'.repeat(256), limit: 101 })).to.deep.equal({ name: 'must have at most 255 characters', limit: 'must be at most 100' });
    expect(issuesFor(schema, { name: 'a\u0000b', limit: 2.5 })).to.deep.equal({ name: 'must not contain NUL characters', limit: 'must be an integer' });
  });

  it('names an undeclared parameter, and lists each parameter once however many rules it breaks', () => {
    const validate = compileSchema({ type: 'object', additionalProperties: false, properties: { name: STRING_PARAMETER } });
    expect(validate({ name: `${'x'.repeat(300)}\u0000`, page: '2' })).to.equal(false);
    const issues = parameterIssues(validate.errors);
    expect(issues.map((issue) => issue.parameter).sort()).to.deep.equal(['name', 'page']);
    expect(issues.find((issue) => issue.parameter === 'page')!.message).to.be.a('string').and.not.equal('');
  });

  it('has no issues without errors', () => {
    expect(parameterIssues(null)).to.deep.equal([]);
    expect(parameterIssues(undefined)).to.deep.equal([]);
  });
});
