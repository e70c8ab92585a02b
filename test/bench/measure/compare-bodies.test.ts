import { expect } from 'chai';
import { bodyDifferences } from '../../../bench/measure/compare-bodies.ts';

const list = (ids: string[], extra: Record<string, unknown> = {}): Record<string, unknown> =>
  ({ items: ids.map((id) => ({ id, name: `n${id}` })), nextCursor: 'opaque', totalItems: 10, ...extra });

describe('bodyDifferences', () => {
  it('finds none when the records and total agree, whatever the cursors look like', () => {
    expect(bodyDifferences(list(['a', 'b']), list(['a', 'b'], { nextCursor: '2026-01-01T00:00:00.000000Z,b' }))).to.deep.equal([]);
    expect(bodyDifferences({ id: 'a', name: 'x' }, { id: 'a', name: 'x' })).to.deep.equal([]);
  });

  it('names a differing record, count, total or next page', () => {
    expect(bodyDifferences(list(['a', 'b']), list(['a', 'c']))).to.deep.equal(['item 1 differs']);
    expect(bodyDifferences(list(['a']), list(['a', 'b']))).to.deep.equal(['1 items from the server, 2 from the floor']);
    expect(bodyDifferences(list(['a'], { totalItems: 9 }), list(['a']))).to.deep.equal(['totalItems 9 from the server, 10 from the floor']);
    expect(bodyDifferences(list(['a'], { nextCursor: null }), list(['a']))).to.deep.equal(['only one of them has a next page']);
    expect(bodyDifferences({ id: 'a' }, { id: 'b' })).to.deep.equal(['the records differ']);
  });
});
