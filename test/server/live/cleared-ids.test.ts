import { expect } from 'chai';
import { parseSnapshot, type Snapshot } from '../../../src/engine/compile/snapshot-text.ts';
import { createClearedIds } from '../../../src/server/live/cleared-ids.ts';

const snapshot = (text: string): Snapshot => parseSnapshot(text, Infinity)!;
const tokens = (...texts: string[]) => new Map(texts.map((text) => [text, { since: snapshot(text) }]));

describe('cleared ids: transactions a token saw running that ended having written nothing of the brand', () => {
  it('asks about each id the brand\'s tokens list, once each, until the probe clears it', () => {
    const cleared = createClearedIds();
    const brands = new Map([['b1', tokens('100:110:101,104', '100:112:104,111')], ['b2', tokens('100:110:')]]);
    const asked = cleared.asking(brands);
    expect(asked).to.deep.equal(new Map([['b1', [101n, 104n, 111n]]]));
    // 101 ended with a stamp of b1 (a change: not cleared), 104 ended with none, 111 still runs.
    const done = cleared.learn('b1', asked.get('b1'), { snapshot: snapshot('105:115:111'), stamped: new Map([['b1', new Set([101n])]]) });
    expect([...done]).to.deep.equal([104n]);
    expect(cleared.asking(brands)).to.deep.equal(new Map([['b1', [101n, 111n]]]));
    // Another brand's stamp is not this one's.
    expect([...cleared.learn('b2', [111n], { snapshot: snapshot('112:115:'), stamped: new Map([['b1', new Set([111n])]]) })]).to.deep.equal([111n]);
  });

  it('keeps only ids a waiting token still lists (an open transaction holding every xmin back included), and forgets a brand with its last waiter', () => {
    const cleared = createClearedIds();
    const done = cleared.learn('b1', [101n, 104n, 106n], { snapshot: snapshot('107:107:'), stamped: new Map() });
    expect([...done]).to.deep.equal([101n, 104n, 106n]);
    // 90 stays open: every token's xmin is 90, and the ids no token lists any more go.
    cleared.keep('b1', tokens('90:110:90,104', '90:111:90,106'));
    expect([...done]).to.deep.equal([104n, 106n]);
    cleared.forget('b1');
    expect([...cleared.learn('b1', [], { snapshot: snapshot('105:105:'), stamped: new Map() })]).to.deep.equal([]);
  });
});
