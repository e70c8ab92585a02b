import { expect } from 'chai';
import { boundedSnapshot, finishedIn, fromXmin, MAX_IN_PROGRESS, parseSnapshot, seesAtLeast, snapshotText, xminOf } from '../../../src/engine/compile/snapshot-text.ts';
import { hasChanged, type BrandKnowledge } from '../../../src/server/live/change-watcher.ts';

const ids = (from: number, count: number): string => Array.from({ length: count }, (_, i) => from + i).join(',');

describe('snapshot text: what a changes token saw', () => {
  it('reads what Postgres writes, and nothing else', () => {
    expect(parseSnapshot('100:105:101,103')).to.deep.equal({ xmin: 100n, xmax: 105n, xip: [101n, 103n] });
    expect(parseSnapshot('100:100:')).to.deep.equal({ xmin: 100n, xmax: 100n, xip: [] });
    for (const bad of ['100:99:', '100:105:105', '100:105:99', '100:105:103,101', '100:105:101,101', '100:105', '0100:105:', 'a:b:', '']) {
      expect(parseSnapshot(bad), bad).to.equal(null);
    }
    expect(snapshotText(parseSnapshot('100:105:101,103')!)).to.equal('100:105:101,103');
    expect(xminOf('100:105:101')).to.equal('100');
    expect(fromXmin('100')).to.equal('100:100:');
  });

  it(`keeps at most ${MAX_IN_PROGRESS} transactions in progress in a token: past it, the xmin alone (which sees less, never more)`, () => {
    const many = `100:200:${ids(101, MAX_IN_PROGRESS + 1)}`;
    expect(parseSnapshot(many)).to.equal(null);
    expect(parseSnapshot(many, Infinity)!.xip).to.have.length(MAX_IN_PROGRESS + 1);
    expect(boundedSnapshot(many)).to.equal('100:100:');
    const enough = `100:200:${ids(101, MAX_IN_PROGRESS)}`;
    expect(boundedSnapshot(enough)).to.equal(enough);
  });

  it('tells a transaction that has finished since from one still running or not begun', () => {
    const now = parseSnapshot('110:120:112,115')!;
    expect(finishedIn(now, 105n), 'below xmin').to.equal(true);
    expect(finishedIn(now, 113n), 'between, not running').to.equal(true);
    expect(finishedIn(now, 115n), 'running').to.equal(false);
    expect(finishedIn(now, 120n), 'not begun').to.equal(false);
    expect(seesAtLeast(now, parseSnapshot('105:118:')!)).to.equal(true);
    expect(seesAtLeast(parseSnapshot('105:118:')!, now)).to.equal(false);
  });
});

describe('hasChanged: whether a probe is news to a waiting token', () => {
  const knowledge = (probe: string, version: bigint | null, truncations: bigint[] = [], cleared: bigint[] = []): BrandKnowledge => ({
    version, truncations, truncationsFrom: 100n, cleared: new Set(cleared), snapshot: parseSnapshot(probe, Infinity)!, at: 0, mark: null,
  });
  const token = { since: parseSnapshot('100:110:104')!, seen: new Set<bigint>() };

  it('is news when a version reaches the token\'s xmax, not when it only passes its xmin (a transaction open elsewhere holds that back)', () => {
    expect(hasChanged(knowledge('100:112:104', 109n), token), 'a version the token saw').to.equal(false);
    expect(hasChanged(knowledge('100:112:104', 110n), token)).to.equal(true);
    expect(hasChanged(knowledge('100:112:104', null), token)).to.equal(false);
  });

  it('is news when a transaction the token saw running has ended, whatever its version', () => {
    expect(hasChanged(knowledge('100:112:104', 103n), token), '104 still running').to.equal(false);
    expect(hasChanged(knowledge('100:112:', 103n), token), '104 ended').to.equal(true);
  });

  it('is no news when a transaction the token saw running ended having written nothing of the brand (cleared)', () => {
    expect(hasChanged(knowledge('100:112:', 103n, [], [104n]), token)).to.equal(false);
    expect(hasChanged(knowledge('100:112:', 103n, [], [105n]), token), 'another id cleared').to.equal(true);
    expect(hasChanged(knowledge('100:112:', 110n, [], [104n]), token), 'a version at the xmax still is').to.equal(true);
  });

  it('is news for a TRUNCATE at or above the xmin that the token has not seen', () => {
    expect(hasChanged(knowledge('100:112:104', 103n, [105n]), token)).to.equal(true);
    expect(hasChanged(knowledge('100:112:104', 103n, [105n]), { ...token, seen: new Set([105n]) })).to.equal(false);
    expect(hasChanged(knowledge('100:112:104', 103n, [99n]), token)).to.equal(false);
  });

  it('is news to a token older than the truncations the probe listed: it cannot tell what came between', () => {
    expect(hasChanged({ ...knowledge('100:112:', 103n), truncationsFrom: 101n }, token)).to.equal(true);
    expect(hasChanged({ ...knowledge('100:112:104', 103n), truncationsFrom: 100n }, token)).to.equal(false);
  });
});
