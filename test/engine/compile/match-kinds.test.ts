import { expect } from 'chai';
import { escapeLike, MATCH_KINDS } from '../../../src/engine/compile/match-kinds.ts';
import type { FilterTarget, Join } from '../../../src/engine/definition/resource.ts';

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
});
