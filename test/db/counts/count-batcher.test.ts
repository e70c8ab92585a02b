import { expect } from 'chai';
import { createCountBatcher } from '../../../src/db/counts/count-batcher.ts';
import { tick } from '../../support/wait-for.ts';

/** A count whose end the test decides: `finish` and `fail` end the runs in the order they started. */
function deferredCount(): { run: () => Promise<number>; started: number; finish: (value: number) => void; fail: (error: Error) => void } {
  const pending: { resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  const control = {
    started: 0,
    run: () => {
      control.started += 1;
      return new Promise<number>((resolve, reject) => pending.push({ resolve, reject }));
    },
    finish: (value: number) => pending.shift()!.resolve(value),
    fail: (error: Error) => pending.shift()!.reject(error),
  };
  return control;
}


describe('count batcher', () => {
  it('starts a run at once when none is running', async () => {
    const batcher = createCountBatcher();
    const count = deferredCount();
    const answer = batcher.count('k', count.run);
    expect(count.started).to.equal(1);
    count.finish(7);
    expect(await answer).to.equal(7);
    expect(batcher.size).to.equal(0);
  });

  it('with two runs at a time, starts a second run of the key at once', async () => {
    const batcher = createCountBatcher({ maxRunning: 2 });
    const count = deferredCount();
    const first = batcher.count('k', count.run);
    const second = batcher.count('k', count.run);
    expect(count.started, 'each started its own run').to.equal(2);
    count.finish(1);
    count.finish(2);
    expect([await first, await second]).to.deep.equal([1, 2]);
    expect(batcher.size).to.equal(0);
  });

  it('makes requests that arrive while the most runs go wait for one next run, started when the first of them ends', async () => {
    const batcher = createCountBatcher({ maxRunning: 2 });
    const count = deferredCount();
    const running = [batcher.count('k', count.run), batcher.count('k', count.run)];
    const waiting = [batcher.count('k', count.run), batcher.count('k', count.run), batcher.count('k', count.run)];
    expect(count.started, 'the joiners do not start a count while two run').to.equal(2);
    count.finish(10);
    expect(await running[0]).to.equal(10);
    await tick();
    expect(count.started, 'one run for the whole batch').to.equal(3);
    // Two run again (the second and the batch's): a request arriving now waits for the run after.
    const later = batcher.count('k', count.run);
    expect(count.started).to.equal(3);
    count.finish(11);
    expect(await running[1]).to.equal(11);
    await tick();
    expect(count.started, 'the later request\'s run started when the second ended').to.equal(4);
    count.finish(12);
    expect(await Promise.all(waiting)).to.deep.equal([12, 12, 12]);
    count.finish(13);
    expect(await later).to.equal(13);
    expect(batcher.size).to.equal(0);
  });

  it('runs one at a time unless told: requests arriving during it share the next', async () => {
    const batcher = createCountBatcher();
    const count = deferredCount();
    const first = batcher.count('k', count.run);
    const waiting = [batcher.count('k', count.run), batcher.count('k', count.run)];
    expect(count.started).to.equal(1);
    count.finish(10);
    expect(await first).to.equal(10);
    await tick();
    expect(count.started).to.equal(2);
    count.finish(11);
    expect(await Promise.all(waiting)).to.deep.equal([11, 11]);
    expect(batcher.size).to.equal(0);
  });

  it('keeps different keys apart', async () => {
    const batcher = createCountBatcher({ maxRunning: 1 });
    const a = deferredCount();
    const b = deferredCount();
    const countA = batcher.count('a', a.run);
    const countB = batcher.count('b', b.run);
    expect([a.started, b.started]).to.deep.equal([1, 1]);
    b.finish(2);
    a.finish(1);
    expect([await countA, await countB]).to.deep.equal([1, 2]);
  });

  it('fails the waiting batch with the first of the running counts to fail, and counts afresh for the next request', async () => {
    const batcher = createCountBatcher({ maxRunning: 2 });
    const count = deferredCount();
    const running = [batcher.count('k', count.run), batcher.count('k', count.run)];
    const joined = batcher.count('k', count.run);
    count.fail(new Error('statement timeout'));
    const failures = await Promise.allSettled([running[0], joined]);
    expect(failures.map((f) => (f.status === 'rejected' ? (f.reason as Error).message : 'ok'))).to.deep.equal(['statement timeout', 'statement timeout']);
    expect(count.started, 'no count was started for a batch that already failed').to.equal(2);
    count.finish(4);
    expect(await running[1], 'the other running count still answers').to.equal(4);
    expect(batcher.size).to.equal(0);
    const fresh = batcher.count('k', count.run);
    count.finish(5);
    expect(await fresh).to.equal(5);
  });
});
