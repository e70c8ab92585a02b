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

  it('compares counts by value exactly, naming what differs', () => {
    const counts = (entries: [unknown, number][], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      by: 'status', counts: entries.map(([value, count]) => ({ value, count })), otherItems: 0, totalItems: entries.reduce((sum, [, n]) => sum + n, 0), ...extra,
    });
    expect(bodyDifferences(counts([['a', 2], [null, 1]]), counts([['a', 2], [null, 1]]))).to.deep.equal([]);
    expect(bodyDifferences(counts([['a', 2], ['b', 1]]), counts([['a', 2], ['c', 1]]))).to.deep.equal([
      'count 1 differs: {"value":"b","count":1} from the server, {"value":"c","count":1} from the floor',
    ]);
    expect(bodyDifferences(counts([['a', 2]]), counts([['a', 2], ['b', 1]]))).to.deep.equal([
      '1 counts from the server, 2 from the floor', 'totalItems 2 from the server, 3 from the floor',
    ]);
    expect(bodyDifferences(counts([['a', 2]], { otherItems: 5 }), counts([['a', 2]]))).to.deep.equal(['otherItems 5 from the server, 0 from the floor']);
    // The same parts, the keys in another order: still not the same body.
    expect(bodyDifferences({ counts: [], by: 'status', otherItems: 0, totalItems: 0 }, counts([]))).to.deep.equal(['the counts bodies differ']);
  });
});
