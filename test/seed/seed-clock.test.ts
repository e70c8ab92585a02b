import { expect } from 'chai';
import { createClock } from '../../src/seed/seed-clock.ts';

describe('the seed clock', () => {
  it('stamps records a minute apart from its start', () => {
    const clock = createClock('2026-01-05T08:00:00.000Z');
    expect([clock.next(), clock.next(), clock.next()]).to.deep.equal(['2026-01-05T08:00:00.000Z', '2026-01-05T08:01:00.000Z', '2026-01-05T08:02:00.000Z']);
  });

  it('jumps to the moment of a step, back in time too: the next record is stamped then', () => {
    const clock = createClock('2026-03-01T00:00:00.000Z');
    clock.next();
    clock.jumpTo('2026-02-27T14:00:00.000Z');
    expect([clock.next(), clock.next()]).to.deep.equal(['2026-02-27T14:00:00.000Z', '2026-02-27T14:01:00.000Z']);
  });

  it('refuses what is not an instant', () => {
    expect(() => createClock('2026-01-05T08:00:00.000Z').jumpTo('someday')).to.throw('seed clock: not an instant: someday');
  });
});
