import { expect } from 'chai';
import { UUID_PATTERN } from '../../src/engine/compile/field-types.ts';
import { createIdSequence } from '../../src/seed/id-sequence.ts';

/** The demo's ids are the same on every load, so the docs can quote them. */
describe('the seed id sequence', () => {
  it('gives lower-case version 4 UUIDs, all different', () => {
    const next = createIdSequence('demo');
    const ids = Array.from({ length: 2000 }, () => next());
    for (const id of ids) expect(id).to.match(new RegExp(UUID_PATTERN)).and.match(/^.{14}4.{3}-[89ab]/);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('repeats itself for the same name, and differs for another', () => {
    const first = createIdSequence('demo');
    const second = createIdSequence('demo');
    const other = createIdSequence('other');
    const a = [first(), first(), first()];
    expect([second(), second(), second()]).to.deep.equal(a);
    expect(other()).not.to.equal(a[0]);
  });
});
