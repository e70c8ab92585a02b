import { expect } from 'chai';
import type { Knex } from 'knex';
import { createReplicaTurn, learnReplayed, type ReadTarget } from '../../../src/db/connection/replica-turn.ts';

/** The turn never touches a database: a name is all a target needs here. */
const target = (name: string): ReadTarget => ({ name, db: {} as Knex });
const names = (candidates: readonly { target: ReadTarget }[]): string[] => candidates.map((candidate) => candidate.target.name);

describe('createReplicaTurn', () => {
  const primary = target('primary');

  it('starts each request at the next replica in turn, with the primary last', () => {
    const turn = createReplicaTurn({ primary, replicas: [target('replica-1'), target('replica-2')] });
    const served = [1, 2, 3, 4].map(() => names(turn.candidates()));
    expect(served).to.deep.equal([
      ['replica-1', 'replica-2', 'primary'],
      ['replica-2', 'replica-1', 'primary'],
      ['replica-1', 'replica-2', 'primary'],
      ['replica-2', 'replica-1', 'primary'],
    ]);
  });

  it('offers only the primary when there are no replicas, and leaves out a replica out of the turn', () => {
    expect(names(createReplicaTurn({ primary, replicas: [] }).candidates())).to.deep.equal(['primary']);
    const turn = createReplicaTurn({ primary, replicas: [target('replica-1'), target('replica-2')] });
    turn.states[0]!.available = false;
    expect(names(turn.candidates())).to.deep.equal(['replica-2', 'primary']);
    expect(turn.candidates().map((candidate) => candidate.state)).to.deep.equal([turn.states[1], null]);
  });

  it('starts every replica in the turn, its WAL position unknown', () => {
    const turn = createReplicaTurn({ primary, replicas: [target('replica-1')] });
    expect(turn.states.map(({ target: { name }, available, probe, replayed }) => ({ name, available, probe, replayed }))).to.deep.equal([
      { name: 'replica-1', available: true, probe: null, replayed: null },
    ]);
  });
});

describe('learnReplayed', () => {
  it('remembers the highest position a replica is known to have replayed', () => {
    const [state] = createReplicaTurn({ primary: target('primary'), replicas: [target('replica-1')] }).states;
    learnReplayed(state!, '0/9000');
    expect(state!.replayed).to.equal(0x9000n);
    learnReplayed(state!, '0/10000');
    expect(state!.replayed).to.equal(0x10000n);
    learnReplayed(state!, '0/9000');
    learnReplayed(state!, null);
    learnReplayed(state!, 'nonsense');
    expect(state!.replayed, 'an older or unreadable position teaches nothing').to.equal(0x10000n);
  });
});
