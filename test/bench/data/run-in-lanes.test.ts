import { expect } from 'chai';
import { runInLanes } from '../../../bench/data/run-in-lanes.ts';
import { tick } from '../../support/wait-for.ts';


describe('runInLanes', () => {
  it('runs a task only after the tasks it waits for, on as many lanes at once as there are', async () => {
    const events: string[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const task = (name: string, after: string[] = []) => ({
      name,
      after,
      run: async (lane: string) => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        events.push(`start ${name} on ${lane}`);
        await tick();
        await tick();
        events.push(`end ${name}`);
        running--;
      },
    });
    await runInLanes({ lanes: ['A', 'B'], tasks: [task('c', ['a', 'b']), task('a'), task('b'), task('d', ['c'])] });
    const at = (event: string): number => events.findIndex((e) => e.startsWith(event));
    expect(at('start c')).to.be.greaterThan(at('end a'));
    expect(at('start c')).to.be.greaterThan(at('end b'));
    expect(at('start d')).to.be.greaterThan(at('end c'));
    expect(events.filter((e) => e.startsWith('start'))).to.have.length(4);
    expect(mostAtOnce).to.equal(2);
  });

  it('starts nothing new after a failure, and throws it', async () => {
    const ran: string[] = [];
    const failing = runInLanes({
      lanes: [1],
      tasks: [
        { name: 'boom', run: async () => { ran.push('boom'); throw new Error('boom'); } },
        { name: 'later', run: async () => { ran.push('later'); } },
      ],
    });
    await failing.then(() => expect.fail('should have thrown'), (error: Error) => expect(error.message).to.equal('boom'));
    expect(ran).to.deep.equal(['boom']);
  });

  it('refuses unknown and circular dependencies before running anything', async () => {
    const ran: string[] = [];
    const run = async (): Promise<void> => { ran.push('ran'); };
    for (const tasks of [[{ name: 'a', after: ['nope'], run }], [{ name: 'a', after: ['b'], run }, { name: 'b', after: ['a'], run }]]) {
      await runInLanes({ lanes: [1], tasks }).then(() => expect.fail('should have thrown'), (error: Error) => expect(error.message).to.match(/unknown task|wait on each other/));
    }
    expect(ran).to.deep.equal([]);
  });
});
