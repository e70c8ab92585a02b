import { expect } from 'chai';
import { loadRegistry } from '../../src/engine/definition/registry.ts';
import { describeDatabaseFree } from './database-free.ts';
import { coveringFamilies, definitionKinds, familiesInRun, familiesInRunNote } from './families-in-run.ts';

const registry = await loadRegistry();
const families = registry.resources.filter((resource) => resource.scope !== 'tenant');
const kindsOf = (list: readonly (typeof families)[number][]): Set<string> => new Set(list.flatMap((resource) => [...definitionKinds(resource)]));

describeDatabaseFree?.('families in a run of the per-family matrices (TEST_FAMILY_SAMPLE)', () => {
  const saved = process.env.TEST_FAMILY_SAMPLE;
  afterEach(() => {
    if (saved === undefined) delete process.env.TEST_FAMILY_SAMPLE;
    else process.env.TEST_FAMILY_SAMPLE = saved;
  });

  it('covers every family when TEST_FAMILY_SAMPLE is not 1, and says nothing in the titles', () => {
    delete process.env.TEST_FAMILY_SAMPLE;
    expect(familiesInRun(families)).to.deep.equal(families);
    expect(familiesInRunNote(families)).to.equal('');
  });

  it('samples, with TEST_FAMILY_SAMPLE=1, a few families that together hold every kind any family declares, in registry order', () => {
    process.env.TEST_FAMILY_SAMPLE = '1';
    const sample = familiesInRun(families);
    expect(sample.length).to.be.above(0).and.below(families.length / 4);
    expect([...kindsOf(sample)].sort()).to.deep.equal([...kindsOf(families)].sort());
    expect(sample).to.deep.equal(families.filter((resource) => sample.includes(resource)));
    expect(familiesInRunNote(families)).to.contain(`${sample.length} of ${families.length} families`);
  });

  it('is the same sample every time, and no family of it could be left out without losing a kind the others lack', () => {
    const sample = coveringFamilies(families);
    expect(coveringFamilies(families).map((resource) => resource.path)).to.deep.equal(sample.map((resource) => resource.path));
    // Each family sampled holds a kind no other sampled family holds: none is there for nothing.
    for (const resource of sample) {
      const others = kindsOf(sample.filter((other) => other !== resource));
      const own = [...definitionKinds(resource)].filter((kind) => !others.has(kind));
      expect(own.length, `${resource.path} adds no kind the other sampled families lack`).to.be.above(0);
    }
  });

  it('tells apart what the matrices check by kind: field types and nullability, matches per type, includes, sorts, ranges and counts', () => {
    const kinds = kindsOf(families);
    for (const prefix of ['scope:', 'area:', 'field:', 'join:', 'filter:exact:', 'filter:contains-ci:', 'filter:since:', 'include:one', 'include:many', 'sort:', 'range:', 'count:']) {
      expect([...kinds].some((kind) => kind.startsWith(prefix)), prefix).to.equal(true);
    }
    expect(kinds.has('field:timestamp')).to.equal(true);
  });
});
