import { expect } from 'chai';
import { compileRegistry } from '../../../src/engine/compile/compile-registry.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';
import { toPositional } from '../../../src/db/query/to-positional.ts';

const BRAND = '11111111-1111-4111-8111-111111111111';

describe('toPositional', () => {
  it('numbers the placeholders in order and leaves the rest of the text alone', () => {
    expect(toPositional(`select a from t where b = ? and c in (?, ?) and d = 'x' limit ?`))
      .to.equal(`select a from t where b = $1 and c in ($2, $3) and d = 'x' limit $4`);
  });

  it('turns an escaped question mark into a literal one, as knex does, without numbering it', () => {
    expect(toPositional(String.raw`select '\?' as q, ? as v`)).to.equal(`select '?' as q, $1 as v`);
  });

  it('refuses identifier bindings, which it cannot send as knex would', () => {
    expect(() => toPositional('select ?? from t')).to.throw(/identifier bindings/);
  });

  it('gives every query of every family as many $n placeholders as the query has bindings', async () => {
    const families = compileRegistry(await loadRegistry());
    expect(families.size).to.be.greaterThan(90);
    for (const [path, family] of families) {
      const filters = Object.fromEntries(family.resource.filters.filter((f) => f.match === 'exact').slice(0, 1).map((f) => [f.name, 'x']));
      const queries = [
        family.queries.one({ brandId: BRAND, id: BRAND }),
        ...(family.resource.scope === 'tenant' ? [] : [
          family.queries.page({ sort: family.sorts.get('createdAt')!, brandId: BRAND, filters, after: { createdAt: '2026-01-01T00:00:00.000000Z', id: BRAND }, limit: 25 }),
          family.queries.count({ brandId: BRAND, filters }).count,
          family.queries.count({ brandId: BRAND, filters }).changedSince('990'),
        ]),
      ];
      for (const query of queries) {
        const numbered = toPositional(query.sql);
        const placeholders = [...numbered.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));
        expect(placeholders, `${path}: ${query.sql}`).to.deep.equal(query.bindings.map((_, i) => i + 1));
        expect(numbered, path).to.not.contain('?');
      }
    }
  });
});
