import { expect } from 'chai';
import fc from 'fast-check';
import { compileSchema } from '../../../src/engine/compile/compile-schema.ts';
import { FIELD_TYPES } from '../../../src/engine/compile/field-types.ts';
import { escapeLike, MATCH_KINDS } from '../../../src/engine/compile/match-kinds.ts';
import type { FieldType, MatchKind } from '../../../src/engine/definition/resource-definition.ts';
import type { FilterTarget, Join } from '../../../src/engine/definition/resource.ts';
import { testDatabase } from '../../support/test-database.ts';
import { hostileCharacter, withHostileCharacter } from '../../support/unicode-text.ts';

const BRAND = '11111111-1111-4111-8111-111111111111';
const name: FilterTarget = { label: 'name', join: null, column: 'name', type: 'string', values: null };
const code: FilterTarget = { label: 'code', join: null, column: 'code', type: 'string', values: null };
const productId: FilterTarget = { label: 'version.product_id', join: 'version', column: 'product_id', type: 'uuid', values: null };
const joins: Record<string, Join> = {
  version: { name: 'version', table: 'product_versions', localColumn: 'product_version_id', foreignColumn: 'id', scope: 'brand' },
};

describe('match kinds', () => {
  it('escapeLike makes %, _ and the escape itself literal', () => {
    expect(escapeLike('100%_a\\b')).to.equal('100\\%\\_a\\\\b');
  });

  it('exact binds the value and never writes it into SQL', () => {
    const clause = MATCH_KINDS.exact.where({ targets: [name], joins, value: "x' or 1=1 --", brandId: BRAND });
    expect(clause).to.deep.equal({ sql: 't."name" = ?', bindings: ["x' or 1=1 --"] });
  });

  it('exact on a joined column is a semi-join limited to the brand', () => {
    const clause = MATCH_KINDS.exact.where({ targets: [productId], joins, value: 'p', brandId: BRAND });
    expect(clause.sql).to.equal(
      't."product_version_id" in (select f."id" from "product_versions" f where f."product_id" = ? and f."brand_id" = ?)',
    );
    expect(clause.bindings).to.deep.equal(['p', BRAND]);
  });

  it('contains-ci ORs an escaped ILIKE over every target', () => {
    const clause = MATCH_KINDS['contains-ci'].where({ targets: [name, code], joins, value: '5%_', brandId: BRAND });
    expect(clause).to.deep.equal({ sql: '(t."name" ilike ? or t."code" ilike ?)', bindings: ['%5\\%\\_%', '%5\\%\\_%'] });
  });

  it('each kind owns its parameter schema', () => {
    expect(MATCH_KINDS.exact.parameterSchema([name])).to.include({ type: 'string', minLength: 1, maxLength: 255 });
    expect(MATCH_KINDS.exact.parameterSchema([productId])).to.have.property('pattern');
    expect(MATCH_KINDS.exact.parameterSchema([{ ...name, type: 'enum', values: ['a', 'b'] }])).to.deep.equal({ type: 'string', enum: ['a', 'b'] });
    expect(MATCH_KINDS['contains-ci'].parameterSchema([name, code])).to.include({ minLength: 1, maxLength: 255 });
  });

  // The root of issue 16's 500: a parameter schema that let through text its column's type does not read
  // (AJV's date-time split on any Unicode space). Every kind on every type it serves, with the SQL it writes.
  it('take as a parameter only text their SQL reads: any value a kind\'s schema accepts runs its predicate without error', async function () {
    this.timeout(60_000);
    const { db } = await testDatabase();
    const near = fc.constantFrom(
      '2026-03-01T09:30:00Z', '2026-03-01 09:30:00.5+01:00', '2026-03-01', '-12.50', 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', 'active', 'Parka %_',
      '2016-12-31T23:59:60.999Z', '0001-01-01T00:00:00+15:59', '9999-12-31T23:59:59.999999999-15:59', '2024-02-29', '99999999999999999999.99999999999999999999',
    );
    const candidates = fc.oneof(
      withHostileCharacter(near),
      withHostileCharacter(withHostileCharacter(near)),
      fc.tuple(near, fc.array(hostileCharacter(), { maxLength: 3 })).map(([value, extra]) => `${value}${extra.join('')}`),
      fc.string({ unit: 'binary', maxLength: 40 }),
      near,
    );
    // As a query string decodes them: invalid UTF-8 (a lone surrogate's escape) becomes U+FFFD, so no parameter holds a lone surrogate.
    const texts = fc.sample(candidates, { numRuns: 3000, seed: 16 }).map((value) => Buffer.from(value, 'utf8').toString('utf8'));
    // Integers and booleans reach SQL as numbers and booleans, converted strictly by the parser (parse-query.test.ts).
    const types = (Object.keys(FIELD_TYPES) as FieldType[]).filter((type) => type !== 'integer' && type !== 'boolean');
    let checked = 0;
    let timestamps = 0;
    for (const kind of Object.keys(MATCH_KINDS) as MatchKind[]) {
      for (const type of types) {
        const target: FilterTarget = { label: 'c', join: null, column: 'c', type, values: type === 'enum' ? ['active', 'archived'] : null };
        const impl = MATCH_KINDS[kind];
        if (impl.check([target]) !== null) continue;
        const accepts = compileSchema(impl.parameterSchema([target]));
        for (const value of new Set(texts.filter((text) => accepts(text)))) {
          const { sql, bindings } = impl.where({ targets: [target], joins: {}, value, brandId: BRAND });
          const error = await db.raw(`select 1 from (select null::${FIELD_TYPES[type].columnType} as c) t where ${sql}`, bindings as string[])
            .then(() => null, (e: Error) => e.message);
          expect(error, `${kind} on ${type}: ${JSON.stringify(value)} passed the schema but not the SQL`).to.equal(null);
          checked += 1;
          if (type === 'timestamp') timestamps += 1;
        }
      }
    }
    expect(checked, 'values that passed a schema (the generator must reach valid ones)').to.be.above(20);
    expect(timestamps, 'timestamps that passed the schema').to.be.above(5);
  });
});

