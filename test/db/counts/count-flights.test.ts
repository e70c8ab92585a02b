import { expect } from 'chai';
import { createCountFlights, MAX_RUNNING_COUNTS } from '../../../src/db/counts/count-flights.ts';
import { tick } from '../../support/wait-for.ts';

/** Counts whose end the test decides: `finish` and `fail` end them in the order they started. */
function deferredCounts(): { run: (order: number) => Promise<number>; orders: number[]; finish: (value: number) => void; fail: (error: Error) => void } {
  const pending: { resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  const control = {
    orders: [] as number[],
    run: (order: number) => {
      control.orders.push(order);
      return new Promise<number>((resolve, reject) => pending.push({ resolve, reject }));
    },
    finish: (value: number) => pending.shift()!.resolve(value),
    fail: (error: Error) => pending.shift()!.reject(error),
  };
  return control;
}

describe('count flights', () => {
  it(`runs ${MAX_RUNNING_COUNTS} counts of a key at once; the next waits, shared, and starts when the first ends`, async () => {
    expect(MAX_RUNNING_COUNTS).to.equal(2);
    const flights = createCountFlights<number>();
    const counts = deferredCounts();
    const first = flights.start('k', '10:10:', counts.run);
    const second = flights.start('k', '12:12:', counts.run);
    expect(counts.orders, 'both started at once').to.have.length(2);
    const waiting = flights.start('k', '13:13:', counts.run);
    expect(flights.start('k', null, counts.run), 'a later request joins the waiting count').to.equal(waiting);
    expect(flights.waiting('k')).to.equal(waiting);
    expect(counts.orders, 'nothing more started while two run').to.have.length(2);
    counts.finish(1);
    expect(await first.result).to.equal(1);
    await tick();
    expect(counts.orders, 'the waiting count started once a slot freed').to.have.length(3);
    expect(flights.waiting('k')).to.equal(undefined);
    counts.finish(2);
    counts.finish(3);
    expect([await second.result, await waiting.result]).to.deep.equal([2, 3]);
    await tick();
    expect(flights.size).to.equal(0);
  });

  it('names as newest the running count made last whose starting point is known', async () => {
    const flights = createCountFlights<number>();
    const counts = deferredCounts();
    expect(flights.newest('k')).to.equal(undefined);
    const known = flights.start('k', '10:10:', counts.run);
    flights.start('k', null, counts.run);
    expect(flights.newest('k'), 'a count with no starting point is never joined').to.equal(known);
    counts.finish(1);
    await known.result;
    await tick();
    expect(flights.newest('k')).to.equal(undefined);
    const later = flights.start('k', '20:20:', counts.run);
    expect(flights.newest('k')).to.equal(later);
    expect(later.order).to.be.above(known.order);
    counts.finish(2);
    counts.finish(3);
    await later.result;
  });

  it('fails the waiting count with the first running one to fail, and starts afresh after', async () => {
    const flights = createCountFlights<number>();
    const counts = deferredCounts();
    const running = [flights.start('k', '1:1:', counts.run), flights.start('k', '2:2:', counts.run)];
    const waiting = flights.start('k', '3:3:', counts.run);
    counts.fail(new Error('statement timeout'));
    const settled = await Promise.allSettled([running[0]!.result, waiting.result]);
    expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as Error).message : 'ok'))).to.deep.equal(['statement timeout', 'statement timeout']);
    expect(counts.orders, 'no count started for a waiting one that already failed').to.have.length(2);
    counts.finish(4);
    expect(await running[1]!.result).to.equal(4);
    await tick();
    expect(flights.size).to.equal(0);
    const fresh = flights.start('k', '5:5:', counts.run);
    counts.finish(5);
    expect(await fresh.result).to.equal(5);
  });

  it('keeps keys apart', async () => {
    const flights = createCountFlights<number>({ maxRunning: 1 });
    const counts = deferredCounts();
    flights.start('a', '1:1:', counts.run);
    flights.start('b', '1:1:', counts.run);
    expect(counts.orders, 'one count of each key, each at once').to.have.length(2);
    counts.finish(1);
    counts.finish(2);
  });
});
