import { expect } from 'chai';
import { createDeadlineSlots } from '../../../src/server/live/deadline-slots.ts';

/** Resolves when `fired` has `count` entries, or after `ms` with what it has. */
async function firedBy(fired: readonly unknown[], count: number, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (fired.length < count && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('deadline slots: the waits that end together, in one timer', () => {
  it('fires each deadline once, never before it, at most one slot after it', async () => {
    const slots = createDeadlineSlots(50);
    const fired: { deadline: number; at: number }[] = [];
    const start = Date.now();
    const deadlines = Array.from({ length: 40 }, (_, i) => start + 10 + ((i * 37) % 200));
    for (const deadline of deadlines) slots.at(deadline, () => fired.push({ deadline, at: Date.now() }));
    expect(slots.size()).to.equal(40);
    await firedBy(fired, 40, 2000);
    expect(fired).to.have.length(40);
    for (const { deadline, at } of fired) {
      expect(at, 'not before its deadline').to.be.at.least(deadline);
      expect(at - deadline, 'within a slot (and the timer slack)').to.be.below(50 + 100);
    }
    expect(slots.size()).to.equal(0);
  });

  it('puts the deadlines of one slot in one timer, so they fire in one turn', async () => {
    const slots = createDeadlineSlots(200);
    const end = Math.ceil((Date.now() + 50) / 200) * 200 + 200;
    const turns: number[] = [];
    let turn = 0;
    const ticker = setInterval(() => (turn += 1), 1);
    for (let i = 0; i < 20; i++) slots.at(end - 150 + i * 5, () => turns.push(turn));
    await firedBy(turns, 20, 2000);
    clearInterval(ticker);
    expect(turns).to.have.length(20);
    expect(new Set(turns).size, 'fired in one turn of the loop').to.equal(1);
  });

  it('a cancelled deadline never fires, a cancel after firing does nothing, and the same function may wait twice', async () => {
    const slots = createDeadlineSlots(20);
    const fired: string[] = [];
    const cancelA = slots.at(Date.now() + 10, () => fired.push('a'));
    const fire = (): void => {
      fired.push('b');
    };
    const cancelB1 = slots.at(Date.now() + 10, fire);
    slots.at(Date.now() + 10, fire);
    cancelA();
    cancelA();
    expect(slots.size()).to.equal(2);
    await firedBy(fired, 2, 1000);
    cancelB1();
    expect(fired).to.deep.equal(['b', 'b']);
    expect(slots.size()).to.equal(0);
    const late = slots.at(Date.now() - 1000, () => fired.push('past'));
    await firedBy(fired, 3, 1000);
    late();
    expect(fired.at(-1), 'a deadline already past fires at once').to.equal('past');
    expect(slots.size()).to.equal(0);
  });
});
