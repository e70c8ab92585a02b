import { expect } from 'chai';
import type { ChangeWatcher, Waiter } from '../../../src/server/live/change-watcher.ts';
import { createDeadlineSlots } from '../../../src/server/live/deadline-slots.ts';
import type { HangUp } from '../../../src/server/live/hang-up.ts';
import { waitOnce, type WaitOutcome } from '../../../src/server/live/wait-once.ts';
import { tick } from '../../support/wait-for.ts';

/** A watcher that keeps its waiters where the test can wake them. */
function fakeWatcher(): ChangeWatcher & { readonly waiters: Set<Waiter> } {
  const waiters = new Set<Waiter>();
  return {
    waiters,
    add(waiter) {
      waiters.add(waiter);
      return () => waiters.delete(waiter);
    },
    knowledge: () => null,
    close: () => waiters.clear(),
  };
}

/** A client that hangs up when the test says, with its one listener. */
function fakeHangUp(hungUp = false): HangUp & { hangUp(): void; listening(): number } {
  let listener: (() => void) | null = null;
  return {
    get hungUp() {
      return hungUp;
    },
    listen(next) {
      listener = next;
      return () => {
        if (listener === next) listener = null;
      };
    },
    hangUp() {
      hungUp = true;
      listener?.();
    },
    listening: () => (listener ? 1 : 0),
  };
}

const SINCE = { xmin: 10n, xmax: 12n, xip: [10n] };

describe('waitOnce', () => {
  function start({ deadline = Date.now() + 60_000, hungUp = false } = {}) {
    const watcher = fakeWatcher();
    const deadlines = createDeadlineSlots(20);
    const hangUp = fakeHangUp(hungUp);
    const stoppers = new Set<() => void>();
    let outcome: WaitOutcome | null = null;
    const waited = waitOnce({ watcher, brandId: 'b1', since: SINCE, seen: new Set([11n]), token: 'tok', deadline, deadlines, hangUp, stoppers }).then((ended) => (outcome = ended));
    /** Nothing of the wait is left anywhere once it has ended. */
    const leftBehind = (): number => watcher.waiters.size + deadlines.size() + hangUp.listening() + stoppers.size;
    return { watcher, deadlines, hangUp, stoppers, waited, outcome: () => outcome, leftBehind };
  }

  it('waits as one entry in the watcher, with the brand, token and snapshot, until woken: changed, with the mark', async () => {
    const wait = start();
    expect(wait.watcher.waiters.size).to.equal(1);
    const [waiter] = wait.watcher.waiters;
    expect(waiter).to.deep.include({ brandId: 'b1', since: SINCE, seen: new Set([11n]), token: 'tok' });
    await tick();
    expect(wait.outcome(), 'still waiting').to.equal(null);
    waiter!.wake('0/16B3748');
    expect(await wait.waited).to.deep.equal({ kind: 'changed', mark: '0/16B3748' });
    expect(wait.leftBehind()).to.equal(0);
  });

  it('ends with timeout at its deadline', async () => {
    const wait = start({ deadline: Date.now() + 30 });
    expect(await wait.waited).to.deep.equal({ kind: 'timeout' });
    expect(wait.leftBehind()).to.equal(0);
  });

  it('ends with stop when the instance stops it', async () => {
    const wait = start();
    expect(wait.stoppers.size).to.equal(1);
    for (const stop of wait.stoppers) stop();
    expect(await wait.waited).to.deep.equal({ kind: 'stop' });
    expect(wait.leftBehind()).to.equal(0);
  });

  it('ends with hung-up when the client goes, or at once when it went before the wait', async () => {
    const wait = start();
    wait.hangUp.hangUp();
    expect(await wait.waited).to.deep.equal({ kind: 'hung-up' });
    expect(wait.leftBehind()).to.equal(0);
    const gone = start({ hungUp: true });
    expect(await gone.waited).to.deep.equal({ kind: 'hung-up' });
    expect(gone.leftBehind()).to.equal(0);
  });

  it('keeps the first ending: a wake after a stop changes nothing', async () => {
    const wait = start();
    const [waiter] = wait.watcher.waiters;
    for (const stop of [...wait.stoppers]) stop();
    waiter!.wake(null);
    wait.hangUp.hangUp();
    expect(await wait.waited).to.deep.equal({ kind: 'stop' });
  });
});
